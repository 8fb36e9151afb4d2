import GRDB
import RTDBCore

/// A query the app has listened to, as remembered on disk (docs/persistence.md#the-cache).
struct TrackedQuery: Sendable, Hashable {
    var id: Int
    var query: QuerySpec
    var lastUse: Int64
    /// The server cache holds complete data for it.
    var complete: Bool
    /// It has a live listener (or keepSynced) now.
    var active: Bool
}

extension ClientStore {
    func loadTrackedQueries() throws -> [TrackedQuery] {
        try queue.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM tracked_queries ORDER BY id").map { row in
                let params = try QueryParams(wireObject: try JSONParser.parse(row["params"] as String))
                return TrackedQuery(
                    id: row["id"], query: QuerySpec(path: Path(row["path"] as String), params: params),
                    lastUse: row["last_use"], complete: row["complete"], active: row["active"])
            }
        }
    }

    func saveTrackedQuery(_ tracked: TrackedQuery, in db: GRDB.Database) throws {
        try saveTrackedQueries([tracked], in: db)
    }

    func deleteTrackedQuery(_ id: Int, in db: GRDB.Database) throws {
        try db.execute(sql: "DELETE FROM tracked_queries WHERE id = ?", arguments: [id])
        try db.execute(sql: "DELETE FROM tracked_keys WHERE query_id = ?", arguments: [id])
    }

    /// At startup nothing is listening yet: every query becomes inactive, used now.
    func resetActiveTrackedQueries(now: Int64) throws {
        try transaction { db in
            try db.execute(
                sql: "UPDATE tracked_queries SET active = 0, last_use = ? WHERE active = 1", arguments: [now])
        }
    }

    func trackedKeys(_ id: Int) throws -> Set<String> {
        try queue.read { db in
            Set(try String.fetchAll(db, sql: "SELECT key FROM tracked_keys WHERE query_id = ?", arguments: [id]))
        }
    }

    func setTrackedKeys(_ id: Int, _ keys: Set<String>, in db: GRDB.Database) throws {
        try db.execute(sql: "DELETE FROM tracked_keys WHERE query_id = ?", arguments: [id])
        let insert = try db.cachedStatement(sql: "INSERT OR IGNORE INTO tracked_keys (query_id, key) VALUES (?, ?)")
        for key in keys { try insert.execute(arguments: [id, key]) }
    }

    func updateTrackedKeys(_ id: Int, added: [String], removed: [String], in db: GRDB.Database) throws {
        let insert = try db.cachedStatement(sql: "INSERT OR IGNORE INTO tracked_keys (query_id, key) VALUES (?, ?)")
        let delete = try db.cachedStatement(sql: "DELETE FROM tracked_keys WHERE query_id = ? AND key = ?")
        for key in added { try insert.execute(arguments: [id, key]) }
        for key in removed { try delete.execute(arguments: [id, key]) }
    }

    // MARK: - keepSynced

    func loadKeepSynced() throws -> [QuerySpec] {
        try queue.read { db in
            try Row.fetchAll(db, sql: "SELECT path, params FROM keep_synced ORDER BY path, params").map { row in
                QuerySpec(
                    path: Path(row["path"] as String),
                    params: try QueryParams(wireObject: try JSONParser.parse(row["params"] as String)))
            }
        }
    }

    func setKeepSynced(_ query: QuerySpec, _ keep: Bool) throws {
        try transaction { db in
            let arguments: StatementArguments = [query.path.description, query.params.wireObject.jsonString]
            if keep {
                try db.execute(
                    sql: "INSERT OR IGNORE INTO keep_synced (path, params) VALUES (?, ?)", arguments: arguments)
            } else {
                try db.execute(sql: "DELETE FROM keep_synced WHERE path = ? AND params = ?", arguments: arguments)
            }
        }
    }
}
