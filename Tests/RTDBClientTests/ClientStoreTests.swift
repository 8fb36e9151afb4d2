import Foundation
import RTDBCore
import RTDBTestSupport
import Testing

@testable import RTDBClient

/// The server-cache rows on a real SQLite file: overlapping rows, split nodes, priorities.
@Suite struct ClientStoreTests {
    static func store() throws -> (ClientStore, URL) {
        let directory = temporaryDirectory()
        return (try ClientStore(path: directory.appendingPathComponent("cache.sqlite").path), directory)
    }

    static func node(_ json: String) throws -> Node { try Node(jsonString: json) }

    /// A read ahead that was dropped keeps nothing of what it read (it stays listed until
    /// shutdown only to be waited for), and one still wanted gives its node once.
    @Test func aDroppedReadAheadLetsGoOfItsData() throws {
        let (store, directory) = try Self.store()
        defer { try? FileManager.default.removeItem(at: directory) }
        try store.transaction { db in
            try store.overwriteServerCache(Path("a"), try Self.node(#"{"b":1}"#), in: db)
            try store.overwriteServerCache(Path("c"), try Self.node(#"{"d":2}"#), in: db)
        }
        let kept = CachePrefetch(store: store, paths: [Path("a"), Path("c")])
        kept.waitUntilDone()
        #expect(kept.take(Path("a")) == (try Self.node(#"{"b":1}"#)))
        #expect(kept.take(Path("a")) == nil, "taken once")
        let dropped = CachePrefetch(store: store, paths: [Path("a"), Path("c")])
        dropped.waitUntilDone()
        dropped.discard()
        #expect(dropped.take(Path("a")) == nil && dropped.take(Path("c")) == nil)
    }

    @Test func deeperRowsOverrideShallowerOnesAndOverwritesClearBelow() throws {
        let (store, directory) = try Self.store()
        defer { try? FileManager.default.removeItem(at: directory) }
        try store.transaction { db in
            try store.overwriteServerCache(Path("a"), try Self.node(#"{"b":{"c":1,"d":2},"e":3}"#), in: db)
            try store.overwriteServerCache(Path("a/b/c"), try Self.node("10"), in: db)
        }
        #expect(try store.serverCache(at: Path("a")) == (try Self.node(#"{"b":{"c":10,"d":2},"e":3}"#)))
        #expect(try store.serverCache(at: Path("a/b")) == (try Self.node(#"{"c":10,"d":2}"#)))
        #expect(try store.serverCache(at: Path("a/b/c")) == Node(.number(.int(10))))
        // A write at a/b replaces what was there, the deeper row included.
        try store.transaction { db in try store.overwriteServerCache(Path("a/b"), try Self.node(#"{"x":true}"#), in: db)
        }
        #expect(try store.serverCache(at: Path("a")) == (try Self.node(#"{"b":{"x":true},"e":3}"#)))
        // Keys that sort next to a path's rows are not mistaken for its children.
        try store.transaction { db in try store.overwriteServerCache(Path("a-b"), try Self.node("5"), in: db) }
        #expect(try store.serverCache(at: Path("a")) == (try Self.node(#"{"b":{"x":true},"e":3}"#)))
        #expect(try store.serverCache(at: Path("a-b")) == Node(.number(.int(5))))
        #expect(try store.serverCache(at: Path("missing")) == .empty)
    }

    /// A node never looked into is cached with its own text.
    ///
    /// A queued write read back from disk and then acknowledged is cached with its stored text,
    /// without being parsed on the way; what is read back is the same data. A large one is still
    /// split, and a node that was looked into is written out as before.
    @Test func aNodeNeverLookedIntoIsCachedWithItsOwnText() throws {
        let (store, directory) = try Self.store()
        defer { try? FileManager.default.removeItem(at: directory) }
        let text = #"{"device":"phone","n":1,"nested":{"é":true,".priority":2}}"#
        let deferred = Node(deferredJSON: text)
        let large = Node(deferredJSON: "{" + (0..<2_000).map { #""k\#($0)":"\#($0)""# }.joined(separator: ",") + "}")
        let lookedInto = Node(deferredJSON: #"{"b":2}"#)
        _ = lookedInto.children.count
        try store.transaction { db in
            try store.overwriteServerCache(Path("a"), deferred, in: db)
            try store.overwriteServerCache(Path("big"), large, in: db)
            try store.overwriteServerCache(Path("c"), lookedInto, in: db)
        }
        #expect(deferred.unparsedJSONText == text, "not parsed to be cached")
        let rows = try store.queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM server_cache") }
        let stored = try store.queue.read { db in
            try String.fetchOne(
                db, sql: "SELECT value FROM server_cache WHERE path = ?", arguments: [ClientStore.key(Path("a"))])
        }
        #expect(stored == text)
        #expect((rows ?? 0) > 3, "the large node is split: \(rows ?? 0) rows")
        #expect(try store.serverCache(at: Path("a")) == (try Self.node(text)))
        #expect(try store.serverCache(at: Path("big")) == large)
        #expect(try store.serverCache(at: Path("c")) == (try Self.node(#"{"b":2}"#)))
    }

    @Test func largeNodesAreSplitAndReadBackWholeWithPriorities() throws {
        let (store, directory) = try Self.store()
        defer { try? FileManager.default.removeItem(at: directory) }
        var children: [String] = []
        for index in 0..<100 {
            children.append(#""k\#(index)":{".priority":\#(index),"text":"\#(String(repeating: "x", count: 300))"}"#)
        }
        let big = try Self.node(#"{".priority":"top","# + children.joined(separator: ",") + "}")
        #expect(big.estimatedSize > ClientStore.splitThreshold)
        try store.transaction { db in
            try store.overwriteServerCache(Path("old"), try Self.node(#"{"list":{"stale":1}}"#), in: db)
            try store.overwriteServerCache(Path("old/list"), big, in: db)
        }
        let rows = try store.queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM server_cache") }
        #expect(rows == 102, "the old row, the split marker and one row per child")
        let read = try store.serverCache(at: Path("old/list"))
        #expect(read == big)
        #expect(read.priority == big.priority)
        #expect(read.child(ChildKey("k7")).priority == big.child(ChildKey("k7")).priority)
        #expect(try store.serverCache(at: Path("old")).child(ChildKey("list")) == big, "the stale child is gone")
        #expect(try store.serverCacheSizeByTopLevelKey()["old"] ?? 0 > 30_000)
    }
}
