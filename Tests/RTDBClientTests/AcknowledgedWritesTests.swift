import Foundation
import GRDB
import RTDBCore
import RTDBTestSupport
import Testing

@testable import RTDBClient

/// Acknowledged writes saved a run at a time leave on a real SQLite file what saving them one by
/// one leaves: the cache rows, the tracked queries, the queue.
@Suite struct AcknowledgedWritesTests {
    /// Random runs of nodes (paths one to three levels over few keys, so nodes land at, above,
    /// below and beside each other; leaves, objects, unparsed text, large split nodes, removals;
    /// keys that are equal only under Unicode equivalence) on a cache that already has rows: the
    /// rows on a real SQLite file after ``ClientStore/saveAcknowledged(_:in:)`` are those a model
    /// of one overwrite at a time leaves (each takes away every row in its key's range, compared
    /// byte by byte as SQLite compares text, then adds its own rows).
    @Test func aRunLeavesTheRowsOneByOneLeaves() throws {
        var random = SeededRandom(seed: 2026_11_27)
        let keys = ["a", "b", "a-b", "é", "e\u{301}", "q1", "q10"]
        func path() -> Path {
            Path(segments: (0..<Int.random(in: 1...3, using: &random)).map { _ in keys.randomElement(using: &random)! })
        }
        func node() throws -> Node {
            switch Int.random(in: 0..<10, using: &random) {
            case 0: return Node(.number(.int(Int64.random(in: 0..<100, using: &random))))
            case 1: return Node(deferredJSON: #"{"n":\#(Int.random(in: 0..<100, using: &random)),"é":true}"#)
            case 2:
                let child = #"{".priority":1,"t":"\#(String(repeating: "x", count: 300))"}"#
                return try Node(jsonString: "{" + (0..<60).map { #""k\#($0)":\#(child)"# }.joined(separator: ",") + "}")
            case 3: return .empty  // a removal: its rows go and none come
            default:
                return try Node(
                    jsonString:
                        #"{"\#(keys.randomElement(using: &random)!)":\#(Int.random(in: 0..<9, using: &random))}"#)
            }
        }
        for trial in 0..<60 {
            let (store, directory) = try ClientStoreTests.store()
            defer { try? FileManager.default.removeItem(at: directory) }
            var existing: [(Path, Node)] = []
            for _ in 0..<8 { existing.append((path(), try node())) }
            var writes = AcknowledgedWrites()
            for _ in 0..<Int.random(in: 1...150, using: &random) { writes.append(path(), try node()) }
            var model = RowModel()
            for (path, node) in existing + writes.nodes { model.overwrite(path, node) }
            try store.transaction { db in
                for (path, node) in existing { try store.overwriteServerCache(path, node, in: db) }
                try store.saveAcknowledged(writes, in: db)
            }
            let saved = try Self.rows(store, "SELECT path, value FROM server_cache ORDER BY path")
            let expected = model.sortedRows
            let differs = zip(saved, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            let same = saved == expected
            #expect(
                same,
                "trial \(trial), \(writes.nodes.count) nodes: rows differ from row \(differs ?? min(saved.count, expected.count)) (\(saved.count) rows, the model \(expected.count))"
            )
        }
    }

    /// The cache's rows as overwrites one at a time leave them, kept in memory.
    private struct RowModel {
        private var rows: [[UInt8]: String] = [:]

        /// Takes away every row from the key of `path` up to its range's end, then adds `node`'s.
        mutating func overwrite(_ path: Path, _ node: Node) {
            let key = ClientStore.key(path)
            let low = Array(key.utf8)
            let high = Array(ClientStore.rangeEnd(key).utf8)
            rows = rows.filter { !(!$0.key.lexicographicallyPrecedes(low) && $0.key.lexicographicallyPrecedes(high)) }
            var added: [String] = []
            ClientStore.appendRows(of: node, at: key, to: &added)
            for index in stride(from: 0, to: added.count, by: 2) { rows[Array(added[index].utf8)] = added[index + 1] }
        }

        /// The rows in SQLite's order of their keys (bytes).
        var sortedRows: [[String]] {
            rows.sorted { $0.key.lexicographicallyPrecedes($1.key) }.map {
                [String(decoding: $0.key, as: UTF8.self), $0.value]
            }
        }
    }

    /// Tracked queries saved together, one id more than once: the last row of each id stays, as
    /// saving them one by one leaves.
    @Test func trackedQueriesSavedTogetherKeepTheLastRowOfEachID() throws {
        let (store, directory) = try ClientStoreTests.store()
        defer { try? FileManager.default.removeItem(at: directory) }
        var writes = AcknowledgedWrites()
        for index in 0..<150 {
            writes.append(
                TrackedQuery(
                    id: index % 100, query: .default(Path("q/\(index)")), lastUse: Int64(index), complete: true,
                    active: false))
        }
        try store.transaction { db in try store.saveAcknowledged(writes, in: db) }
        let loaded = try store.loadTrackedQueries()
        #expect(loaded.count == 100)
        #expect(loaded.first { $0.id == 7 }?.query.path == Path("q/107"))
        #expect(loaded.first { $0.id == 70 }?.query.path == Path("q/70"))
        #expect(loaded.allSatisfy { $0.complete && !$0.active })
    }

    /// Queued writes removed by id in runs: the ids between two runs stay.
    @Test func queuedWritesAreRemovedByRunsOfIDs() throws {
        let (store, directory) = try ClientStoreTests.store()
        defer { try? FileManager.default.removeItem(at: directory) }
        for id in 1...40 {
            try store.insertWrite(
                StoredWrite(
                    id: id, kind: .set, path: Path("q/\(id)"), data: .int(Int64(id)),
                    enqueuedAt: UnixTime(millisecondsSince1970: 0)))
        }
        let removed = [5, 3, 4, 10, 11, 12, 20, 39, 40, 1]
        try store.transaction { db in try store.updateQueue(removing: removed, attempts: [:], in: db) }
        let left = try store.loadWrites().map(\.id)
        #expect(left == (1...40).filter { !removed.contains($0) })
        // The largest ids there are (a file edited by hand) end their runs without overflowing.
        try store.transaction { db in
            try store.updateQueue(removing: [Int.max, Int.max - 1, Int.max, 2], attempts: [:], in: db)
        }
        #expect(try store.loadWrites().map(\.id) == left.filter { $0 != 2 })
    }

    /// Attempt counts saved by runs of consecutive ids with one count: random counts over ids
    /// with gaps leave every row with its own count, and rows not named with theirs.
    @Test func attemptsAreSavedByRunsOfIDsAndCounts() throws {
        let (store, directory) = try ClientStoreTests.store()
        defer { try? FileManager.default.removeItem(at: directory) }
        let ids = (1...200).filter { $0 % 17 != 0 }
        for id in ids {
            try store.insertWrite(
                StoredWrite(
                    id: id, kind: .set, path: Path("q/\(id)"), data: .int(Int64(id)),
                    enqueuedAt: UnixTime(millisecondsSince1970: 0), attempts: 9))
        }
        var random = SeededRandom(seed: 33)
        var expected = Dictionary(uniqueKeysWithValues: ids.map { ($0, 9) })
        for _ in 0..<20 {
            var attempts: [Int: Int] = [:]
            for id in ids where Int.random(in: 0..<3, using: &random) > 0 {
                attempts[id] = Int.random(in: 1...2, using: &random)
            }
            try store.transaction { db in try store.updateQueue(removing: [], attempts: attempts, in: db) }
            expected.merge(attempts) { $1 }
            let saved = Dictionary(uniqueKeysWithValues: try store.loadWrites().map { ($0.id, $0.attempts) })
            #expect(saved == expected)
        }
        try store.transaction { db in try store.updateQueue(removing: [], attempts: [Int.max: 3, 1: 4], in: db) }
        #expect(try store.loadWrites().first?.attempts == 4)
    }

    private static func rows(_ store: ClientStore, _ sql: String) throws -> [[String]] {
        try store.queue.read { db in
            try Row.fetchAll(db, sql: sql).map { row in [row[0] as String, row[1] as String] }
        }
    }
}
