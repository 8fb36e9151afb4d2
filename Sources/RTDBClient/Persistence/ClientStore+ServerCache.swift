import Foundation
import GRDB
import RTDBCore

/// The server cache as rows keyed by path (`/a/b/`; the root is `/`), after the Android SDK's
/// design: a deeper row overrides part of a shallower one, writing at P first deletes every row at
/// and below P, and a large children node is split into one row per child under a marker row.
extension ClientStore {
    /// Children nodes estimated above this size are stored one row per child.
    static let splitThreshold = 16 * 1024

    static func key(_ path: Path) -> String {
        path.isEmpty ? "/" : path.slashJoined(leading: true, trailing: true)
    }

    /// The end of the key range of `key`'s descendants (`/` + 1 is `0`).
    static func rangeEnd(_ key: String) -> String {
        // The key's bytes copied once, its closing `/` replaced (an acknowledgement's save makes one).
        let count = key.utf8.count
        guard count > 0 else { return "0" }
        return String(unsafeUninitializedCapacity: count) { bytes in
            _ = bytes.initialize(from: key.utf8)
            bytes[count - 1] = UInt8(ascii: "0")
            return count
        }
    }

    private static func path(fromKey key: String) -> Path { Path(String(key.dropFirst().dropLast())) }

    /// Replaces the cached node at `path`.
    func overwriteServerCache(_ path: Path, _ node: Node, in db: GRDB.Database) throws {
        try overwriteServerCache([(path, node)], in: db)
    }

    /// The rows that cache `node` at `key`, appended as key then text: one row, or a marker row and
    /// one row per child when the node is large.
    static func appendRows(of node: Node, at key: String, to rows: inout [String]) {
        // A queued write read back from disk and acknowledged, never looked into: its stored text
        // is this row's text already (export JSON). Small enough that its estimate could not
        // reach the split threshold (export JSON estimates at a few bytes per byte of text).
        if let text = node.unparsedJSONText, text.utf8.count <= splitThreshold / 8 {
            rows.append(key)
            rows.append(text)
            return
        }
        if !node.isLeaf, !node.isEmpty, node.estimatedSize > splitThreshold {
            var marker: JSONValue.Members = [".split": true]
            if let priority = node.priority { marker[".priority"] = priority.json }
            rows.append(key)
            rows.append(JSONValue.object(marker).jsonString)
            for (childKey, child) in node.children {
                appendRows(of: child, at: key + childKey.string + "/", to: &rows)
            }
        } else {
            rows.append(key)
            rows.append(node.exportJSON.jsonString)
        }
    }

    /// The cached node at `path`: the deepest row at or above it, overlaid with the rows below it.
    func serverCache(at path: Path) throws -> Node {
        try queue.read { db in try serverCache(at: path, in: db) }
    }

    func serverCache(at path: Path, in db: GRDB.Database) throws -> Node {
        let key = ClientStore.key(path)
        var prefixes = ["/"]
        var current = "/"
        for segment in path.segments {
            current += segment + "/"
            prefixes.append(current)
        }
        let placeholders = Array(repeating: "?", count: prefixes.count).joined(separator: ",")
        var result = Node.empty
        var priorities: [(Path, Priority)] = []
        let ancestors = try Row.fetchAll(
            db, sql: "SELECT path, value FROM server_cache WHERE path IN (\(placeholders)) ORDER BY length(path)",
            arguments: StatementArguments(prefixes))
        for row in ancestors {
            let rowPath = ClientStore.path(fromKey: row["path"])
            let (node, priority) = try ClientStore.decode(row["value"], at: rowPath)
            // The rows were selected as `path` and its ancestors, so each has a relative path.
            guard let relative = rowPath.relativePath(to: path) else { continue }
            result = node.child(at: relative)
            priorities.removeAll()
            if let priority, rowPath == path { priorities.append((.root, priority)) }
        }
        // Rows below, read in place; their nodes are left unparsed (a restart's first events
        // rarely look inside every cached child). Keys are relative to `path`.
        let prefixLength = key.utf8.count
        var rows: [(key: String, node: Node, priority: Priority?)] = []
        var oneLevel = true
        try ClientStore.forEachRow(
            db, sql: "SELECT path, value FROM server_cache WHERE path > ? AND path < ? ORDER BY path",
            arguments: [key, ClientStore.rangeEnd(key)]
        ) { row in
            let suffix = UnsafeBufferPointer(rebasing: row.bytes(0).dropFirst(prefixLength).dropLast())
            if oneLevel, suffix.contains(UInt8(ascii: "/")) { oneLevel = false }
            let (node, priority) = try ClientStore.decode(row.bytes(1))
            rows.append((String(decoding: suffix, as: UTF8.self), node, priority))
        }
        // The common shape, a split node with one row per child: build its children in one go.
        if result.isEmpty, priorities.count <= 1, oneLevel {
            var entries: [(key: ChildKey, node: Node)] = []
            entries.reserveCapacity(rows.count)
            for row in rows where !row.node.isEmpty {
                entries.append((ChildKey(row.key), row.priority.map { row.node.withPriority($0) } ?? row.node))
            }
            // Rows come in byte order, which is key order unless integer keys or keys extending
            // one another with a character below `/` are mixed in: check rather than sort.
            let inOrder = zip(entries, entries.dropFirst()).allSatisfy { $0.key < $1.key }
            return Node(
                children: inOrder ? ChildrenMap(sorted: entries) : ChildrenMap(entries), priority: priorities.first?.1)
        }
        for row in rows {
            let relative = Path(row.key)
            result = result.updating(at: relative, with: row.node)
            if let priority = row.priority { priorities.append((relative, priority)) }
        }
        for (relative, priority) in priorities {
            let node = result.child(at: relative)
            result = result.updating(at: relative, with: node.withPriority(priority))
        }
        return result
    }

    /// A row's node; a split marker gives the empty node and the priority it keeps.
    private static func decode(_ text: String, at path: Path) throws -> (Node, Priority?) {
        // A split marker is a small object holding `.split`; everything else is a node.
        if text.utf8.count < 128, text.contains(#"".split""#) {
            let members = try JSONParser.parse(text).objectValue ?? [:]
            return (.empty, try members[".priority"].flatMap { try Priority(json: $0, at: path) })
        }
        return (try JSONParser.parseNode(text), nil)
    }

    /// A row's node left unparsed (a restart's first events rarely look inside every cached
    /// child); a split marker is parsed as in ``decode(_:at:)``.
    private static func decode(_ bytes: UnsafeBufferPointer<UInt8>) throws -> (Node, Priority?) {
        if bytes.count < 128, String(decoding: bytes, as: UTF8.self).contains(#"".split""#) {
            return try decode(String(decoding: bytes, as: UTF8.self), at: .root)
        }
        return (Node(deferredJSON: bytes), nil)
    }

    /// Bytes the cache takes: stored JSON plus path text, as the Android SDK counts.
    func serverCacheSize() throws -> Int {
        try queue.read { db in
            try Int.fetchOne(db, sql: "SELECT coalesce(sum(length(value) + length(path)), 0) FROM server_cache") ?? 0
        }
    }

    /// Bytes per top-level key (`/` for rows at the root).
    func serverCacheSizeByTopLevelKey() throws -> [String: Int] {
        try queue.read { db in
            var sizes: [String: Int] = [:]
            let rows = try Row.fetchCursor(
                db, sql: "SELECT path, length(value) + length(path) AS size FROM server_cache")
            while let row = try rows.next() {
                let key: String = row["path"]
                let top = key == "/" ? "/" : String(key.dropFirst().prefix { $0 != "/" })
                sizes[top, default: 0] += row["size"] as Int
            }
            return sizes
        }
    }

    /// Deletes every cached row under a pruned path that no kept path covers; kept data that lived
    /// in a deleted row is saved again in rows of its own.
    func pruneServerCache(prune: [Path], keep: [Path], in db: GRDB.Database) throws {
        for pruned in prune {
            let key = ClientStore.key(pruned)
            let keptBelow = keep.filter { pruned.contains($0) }
            if keep.contains(where: { $0.contains(pruned) }) { continue }
            var saved: [(path: Path, node: Node)] = []
            for kept in keptBelow { saved.append((kept, try serverCache(at: kept, in: db))) }
            try deleteRanges([key, ClientStore.rangeEnd(key)], in: db)
            try overwriteServerCache(saved.filter { !$0.node.isEmpty }, in: db)
        }
    }

    func clearServerCache(in db: GRDB.Database) throws {
        try db.execute(sql: "DELETE FROM server_cache")
    }
}
