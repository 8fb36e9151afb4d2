import GRDB
import RTDBCore
import RawSQLite

/// Acknowledged writes saved in a few statements: a draining queue acknowledges thousands, and
/// three statements for each (a range deleted, a row and a tracked query written) cost the client
/// more than the rest of an acknowledgement.
extension ClientStore {
    /// Caches `writes` in `db`'s transaction: their nodes, then their tracked queries.
    func saveAcknowledged(_ writes: AcknowledgedWrites, in db: GRDB.Database) throws {
        try overwriteServerCache(writes.nodes, in: db)
        try saveTrackedQueries(writes.trackedQueries, in: db)
    }

    /// Replaces the cached node at each path, in order, in `db`'s transaction: what overwriting
    /// them one by one leaves.
    ///
    /// One by one, each node deletes the rows at and below its path, then writes its own. Here a
    /// run of nodes deletes all its ranges, then writes all its rows: the same, unless a node lies
    /// at or above an earlier one of the run (its range would delete the earlier one's rows), so
    /// such a node starts a new run.
    func overwriteServerCache(_ nodes: [(path: Path, node: Node)], in db: GRDB.Database) throws {
        var ranges: [String] = []
        var rows: [String] = []
        // The hashes of every key at or above a node of the run: a node whose key's hash is here
        // may lie above one (a collision only starts a run early, which is still right).
        var above = Set<UInt64>()
        func flush() throws {
            try deleteRanges(ranges, in: db)
            try insertRows(rows, in: db)
            ranges.removeAll(keepingCapacity: true)
            rows.removeAll(keepingCapacity: true)
            above.removeAll(keepingCapacity: true)
        }
        var prefixes: [UInt64] = []
        for (path, node) in nodes {
            let key = ClientStore.key(path)
            Self.prefixHashes(of: key, into: &prefixes)
            // The last prefix is the key itself.
            if let own = prefixes.last, above.contains(own) { try flush() }
            above.formUnion(prefixes)
            ranges.append(key)
            ranges.append(ClientStore.rangeEnd(key))
            ClientStore.appendRows(of: node, at: key, to: &rows)
        }
        try flush()
    }

    /// The FNV-1a hashes of `key`'s prefixes that end with `/` (the keys of the node's ancestors,
    /// then its own), in one pass over its bytes and without making those strings; `hashes` is
    /// emptied first.
    private static func prefixHashes(of key: String, into hashes: inout [UInt64]) {
        hashes.removeAll(keepingCapacity: true)
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in key.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
            if byte == UInt8(ascii: "/") { hashes.append(hash) }
        }
    }

    /// Deletes the rows in each range (`from` and `to` pairs: from included, to excluded).
    func deleteRanges(_ bounds: [String], in db: GRDB.Database) throws {
        try RawStatement.forEachChunk(of: bounds, valuesPerRow: 2) { count, values in
            try RawStatement.execute(db, sql: Self.deleteRangesSQL[count]) { bind in
                for value in values { bind.text(value) }
            }
        }
    }

    /// Writes rows (`key` and `text` pairs), in order.
    private func insertRows(_ rows: [String], in db: GRDB.Database) throws {
        try RawStatement.forEachChunk(of: rows, valuesPerRow: 2) { count, values in
            try RawStatement.execute(db, sql: Self.insertRowsSQL[count]) { bind in
                for value in values { bind.text(value) }
            }
        }
    }

    /// Saves tracked queries, in order.
    func saveTrackedQueries(_ queries: [TrackedQuery], in db: GRDB.Database) throws {
        try RawStatement.forEachChunk(of: queries, valuesPerRow: 1) { count, queries in
            try RawStatement.execute(db, sql: Self.saveTrackedQueriesSQL[count]) { bind in
                for tracked in queries {
                    bind.int(Int64(tracked.id))
                    bind.text(tracked.query.path.description)
                    bind.text(Self.paramsText(of: tracked.query))
                    bind.int(tracked.lastUse)
                    bind.bool(tracked.complete)
                    bind.bool(tracked.active)
                }
            }
        }
    }

    /// The statements for each number of rows up to ``RawStatement/rowsPerStatement``.
    ///
    /// A range is a term of an `OR`, which SQLite runs as one search of the path index per term
    /// (its multi-index OR): about half the work of joining the ranges as a table of values.
    private static let deleteRangesSQL = (0...RawStatement.rowsPerStatement).map { rows in
        rows == 0
            ? "DELETE FROM server_cache WHERE 0"
            : "DELETE FROM server_cache WHERE "
                + Array(repeating: "(path >= ? AND path < ?)", count: rows).joined(separator: " OR ")
    }
    private static let insertRowsSQL = RawStatement.texts(columns: 2) { rows in
        "INSERT OR REPLACE INTO server_cache (path, value) VALUES \(rows)"
    }
    private static let saveTrackedQueriesSQL = RawStatement.texts(columns: 6) { rows in
        """
        INSERT OR REPLACE INTO tracked_queries (id, path, params, last_use, complete, active)
        VALUES \(rows)
        """
    }

    /// A tracked query's parameters as stored.
    static func paramsText(of query: QuerySpec) -> String {
        query.params.isDefault ? defaultParamsText : query.params.wireObject.jsonString
    }

    /// The default query's parameters as stored, written once (an acknowledged write tracks a
    /// default query, and a draining queue saves thousands).
    private static let defaultParamsText = QueryParams.default.wireObject.jsonString

    /// Deletes queued writes by id: each run of consecutive ids in one statement.
    func deleteQueuedWrites(_ ids: [Int], in db: GRDB.Database) throws {
        let delete = try db.cachedStatement(sql: "DELETE FROM writes WHERE id BETWEEN ? AND ?")
        try Self.forEachRun(
            of: ids.sorted(), id: { $0 }, body: { first, last, _ in try delete.execute(arguments: [first, last]) })
    }

    /// Saves queued writes' attempt counts: each run of consecutive ids with one count in one
    /// statement (a connection sends a whole restored queue at once, every write's first attempt).
    func saveAttempts(_ attempts: [Int: Int], in db: GRDB.Database) throws {
        let update = try db.cachedStatement(sql: "UPDATE writes SET attempts = ? WHERE id BETWEEN ? AND ?")
        let sorted = attempts.sorted { $0.key < $1.key }
        try Self.forEachRun(
            of: sorted, id: \.key, together: { $0.value == $1.value },
            body: { first, last, entry in try update.execute(arguments: [entry.value, first, last]) })
    }

    /// Calls `body` with the first and last id, and the first item, of each run of `items`
    /// (sorted by id): neighbours whose ids are equal or one apart, and `together`.
    private static func forEachRun<Item>(
        of items: [Item], id: (Item) -> Int, together: (Item, Item) -> Bool = { _, _ in true },
        body: (_ first: Int, _ last: Int, _ item: Item) throws -> Void
    ) rethrows {
        var start = 0
        while start < items.count {
            var end = start
            while end + 1 < items.count {
                let (current, next) = (id(items[end]), id(items[end + 1]))
                // An id of Int.max (a file edited by hand) ends its run: `+ 1` never overflows.
                guard current != .max, next <= current + 1, together(items[end], items[end + 1]) else { break }
                end += 1
            }
            try body(id(items[start]), id(items[end]), items[start])
            start = end + 1
        }
    }
}
