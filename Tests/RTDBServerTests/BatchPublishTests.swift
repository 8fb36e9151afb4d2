import Foundation
import Logging
import RTDBCore
import RTDBRules
import RTDBServer
import RTDBTestSupport
import RTDBWire
import Testing

/// Writes applied in one turn of the engine are committed as one batch and published as one
/// version of the tree: what each listen hears and each waiting read answers is still the tree
/// as that write left it, on a real SQLite file.
///
/// A message that never comes fails the test at its time limit rather than holding the run.
@Suite(.timeLimit(.minutes(10))) struct BatchPublishTests {
    let directory = temporaryDirectory()

    func open() async throws -> DatabaseEngine {
        var logger = Logger(label: "test.engine")
        logger.logLevel = .critical
        return try await DatabaseEngine.open(
            namespace: "t", store: SQLiteStore(path: directory.appendingPathComponent("t.sqlite").path),
            time: TimeSource.system.withWall({ UnixTime(millisecondsSince1970: 1_000_000) }),
            connections: ConnectionTable(), logger: logger,
            rules: SecurityRules(text: #"{ "rules": { ".read": true, ".write": true } }"#))
    }

    /// The wire messages `outlet` gets until one contains `last`.
    static func messages(of outlet: Outlet, until last: String) async -> [String] {
        await messages(of: outlet) { $0.last?.contains(last) == true }
    }

    /// The wire messages `outlet` gets until `done` says they are all there.
    static func messages(of outlet: Outlet, until done: ([String]) -> Bool) async -> [String] {
        var seen: [String] = []
        while let items = await outlet.nextBatch() {
            for case .wire(let text) in items {
                seen.append(text)
                if done(seen) { return seen }
            }
        }
        return seen
    }

    static func requests(_ requests: [ClientRequest]) -> [SessionRequest] {
        requests.enumerated().map { SessionRequest(number: $0.offset + 1, request: .success($0.element)) }
    }

    @Test func aReadWaitingInABatchSeesTheWritesBeforeItAndNotAfter() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let engine = try await open()
        let writer = Outlet()
        await engine.openSession(outlet: writer, sessionID: "w")
        // One turn: a write nobody listens to, the connection's own write, its read (which waits
        // for that write), and a later write, all in one commit.
        await engine.handle(
            Self.requests([
                .put(path: Path("open/a"), data: 1, hash: nil),
                .put(path: Path("open/b"), data: 2, hash: nil),
                .get(path: Path("open"), query: .default),
                .put(path: Path("open/c"), data: 3, hash: nil),
            ]), outlet: writer)
        let seen = await Self.messages(of: writer, until: #""r":4,"#)
        let read = try #require(seen.first { $0.contains(#""r":3,"#) })
        let answer = try #require(JSONParser.parse(read)["d"]?["b"]?["d"])
        #expect(answer == ["a": 1, "b": 2], "the read sees the writes before it, not the one after")
        #expect(seen.map { $0.contains(#""r":3,"#) } == [false, false, true, false], "answered in order: \(seen)")
        let stored = try await engine.read(Path("open"), auth: .admin).node
        #expect(stored.exportJSON == ["a": 1, "b": 2, "c": 3])
    }

    @Test func aListenHearsEachWriteOfABatchAsItLeftTheTree() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let engine = try await open()
        let listener = Outlet()
        await engine.openSession(outlet: listener, sessionID: "l")
        let highestTwo = try QueryParams(wireObject: ["l": 2, "vf": "r", "i": "n"])
        await engine.handle(
            Self.requests([
                .listen(path: Path("open/list"), query: .default, tag: nil, hash: ""),
                .listen(path: Path("open/list"), query: highestTwo, tag: 7, hash: ""),
            ]), outlet: listener)
        _ = await Self.messages(of: listener, until: #""r":2,"#)

        let writer = Outlet()
        await engine.openSession(outlet: writer, sessionID: "w")
        await engine.handle(
            Self.requests([
                .put(path: Path("elsewhere/x"), data: 0, hash: nil),
                .put(path: Path("open/list/p"), data: ["n": 1], hash: nil),
                .put(path: Path("elsewhere/y"), data: 0, hash: nil),
                .put(path: Path("open/list/q"), data: ["n": 3], hash: nil),
                .put(path: Path("open/list/r"), data: ["n": 2], hash: nil),
            ]), outlet: writer)
        _ = await Self.messages(of: writer, until: #""r":5,"#)
        // Each of the three writes to the list, heard by both listens (in either order).
        let heard = await Self.messages(of: listener) { $0.count == 6 }
        let pushes = try heard.map { try JSONParser.parse($0)["d"]?["b"] }
        // The plain listen hears each child as it is written.
        let plain = pushes.compactMap { $0 }.filter { $0["t"] == nil }.map { $0["p"] }
        #expect(plain == ["/open/list/p", "/open/list/q", "/open/list/r"])
        // The query (the two highest `n`) hears each change of its window in turn: p, then q,
        // then r taking p's place.
        let query = pushes.compactMap { $0 }.filter { $0["t"] == 7 }.map { $0["d"] }
        #expect(query == [["p": ["n": 1]], ["q": ["n": 3]], ["p": nil, "r": ["n": 2]]], "\(heard)")
    }
}
