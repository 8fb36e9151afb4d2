import Foundation
import Logging
import RTDBCore
import RTDBRules
import RTDBTestSupport
import RTDBWire
import Synchronization
import Testing

@testable import RTDBServer

/// Sessions that end together run their onDisconnect writes as one batch: the result is what
/// running them one by one gives (each judged and resolved on the data the ones before it left),
/// listeners hear it once, and only the listeners it touches.
@Suite struct OnDisconnectBatchTests {
    let directory = temporaryDirectory()
    var file: String { directory.appendingPathComponent("t.sqlite").path }

    static let rules = """
        {
          "rules": {
            "n": { ".read": true, ".write": true },
            "once": { ".read": true, "$k": { ".write": "auth != null && !data.exists()" } },
            "c": { ".read": true, ".write": true },
            "keys": { ".read": true, ".write": true },
            "beside": { ".read": true, ".write": true }
          }
        }
        """

    func open() async throws -> DatabaseEngine {
        var logger = Logger(label: "test.engine")
        logger.logLevel = .critical
        return try await DatabaseEngine.open(
            namespace: "t", store: SQLiteStore(path: file),
            time: TimeSource.system.withWall({ UnixTime(millisecondsSince1970: 1_000_000) }),
            connections: ConnectionTable(), logger: logger, rules: SecurityRules(text: Self.rules))
    }

    /// Runs `requests` on `outlet` and waits for the answer to the last (sent once it is stored).
    func send(_ requests: [ClientRequest], to engine: DatabaseEngine, outlet: Outlet) async throws {
        let batch = requests.enumerated().map { SessionRequest(number: $0.offset + 1, request: .success($0.element)) }
        await engine.handle(batch, outlet: outlet)
        let last = #""r":\#(requests.count),"#
        while let items = await outlet.nextBatch() {
            for case .wire(let text) in items where text.contains(last) {
                #expect(text.contains(#""s":"ok""#), "\(text)")
                return
            }
        }
    }

    static func signIn(_ uid: String) -> ClientRequest {
        .auth(
            credential: AuthToken.unsignedJWT(claims: ["uid": .string(uid), "exp": .int(1 << 40)]), authVariable: nil)
    }

    /// A signed-in session with these onDisconnect writes registered.
    func session(_ uid: String, _ writes: [(String, JSONValue)], on engine: DatabaseEngine) async throws -> Outlet {
        let outlet = Outlet()
        await engine.openSession(outlet: outlet, sessionID: "s-\(uid)")
        try await send(
            [Self.signIn(uid)] + writes.map { .onDisconnectPut(path: Path($0.0), data: $0.1) }, to: engine,
            outlet: outlet)
        return outlet
    }

    /// A listen at `path` on a session of its own, whose messages an ``OutletRecorder`` keeps.
    func listen(_ path: String, on engine: DatabaseEngine) async -> OutletRecorder {
        let recorder = OutletRecorder()
        await engine.openSession(outlet: recorder.outlet, sessionID: "l-\(path)")
        let listen = ClientRequest.listen(path: Path(path), query: .default, tag: nil, hash: "")
        await engine.handle([SessionRequest(number: 1, request: .success(listen))], outlet: recorder.outlet)
        return recorder
    }

    /// Returns once everything the engine applied before is published: a write of its own is
    /// acknowledged only after the writes before it were heard.
    func barrier(_ engine: DatabaseEngine) async throws {
        let writer = Outlet()
        await engine.openSession(outlet: writer, sessionID: "barrier-\(UUID().uuidString)")
        try await send(
            [.put(path: Path("beside/mark"), data: .string(UUID().uuidString), hash: nil)], to: engine, outlet: writer)
        await engine.closeSession(outlet: writer)
    }

    func value(_ path: String, _ engine: DatabaseEngine) async throws -> JSONValue {
        try await engine.read(Path(path), auth: .admin).node.exportJSON
    }

    @Test func theBatchGivesWhatOneByOneGives() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let engine = try await open()
        let first = try await session(
            "a",
            [
                ("n/x", ["a": 1]), ("once/k", "a"), ("c/count", [".sv": ["increment": 1]]),
                ("keys/\u{E9}", 1),
            ], on: engine)
        let second = try await session(
            "b",
            [
                ("n/x/b", 2), ("once/k", "b"), ("c/count", [".sv": ["increment": 1]]),
                ("keys/e\u{301}", 2),
            ], on: engine)
        let third = try await session("c", [("n/y", 3), ("n/y", .null)], on: engine)

        await engine.closeSessions(outlets: [first, second, third])
        try await barrier(engine)

        // The second session's write inside the first's lands inside it, as it would one by one.
        #expect(try await value("n", engine) == ["x": ["a": 1, "b": 2]])
        // The rule is judged on the data the first session's write left: the second is refused.
        #expect(try await value("once/k", engine) == "a")
        // Each increment sees the one before it.
        #expect(try await value("c/count", engine) == 2)
        // Keys that differ in code units are two keys, not one (Swift's `==` would join them).
        let keys = try await value("keys", engine)
        #expect(keys.objectValue?.count == 2, "\(keys)")
        #expect(await engine.sessionCount == 0)
        // What the file holds (the batch's log record replayed, as after a crash: the engine is
        // not closed first, which would store its tree whole) is what was served.
        let served = try await value("", engine)
        #expect(try await SQLiteStore(path: file).load().root.exportJSON == served)
        #expect(try await SQLiteStore(path: file).loadOnDisconnect().isEmpty, "no session's writes left stored")
        await engine.close()
    }

    /// Under rules that read no data the batch's writes go into the tree together, yet the
    /// result is what one by one gives: an increment sees the increments and writes before it, a
    /// write inside an earlier one lands in it, an entry removed and written again is there.
    @Test func underRulesThatReadNoDataTheWritesGoInTogether() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        var logger = Logger(label: "test.engine")
        logger.logLevel = .critical
        let rules = try SecurityRules(
            text: #"{"rules": {".read": true, ".write": "auth != null", "beside": {".write": true}}}"#)
        #expect(!rules.writesDependOnData)
        let engine = try await DatabaseEngine.open(
            namespace: "t", store: SQLiteStore(path: file),
            time: TimeSource.system.withWall({ UnixTime(millisecondsSince1970: 1_000_000) }),
            connections: ConnectionTable(), logger: logger, rules: rules)
        let writer = Outlet()
        await engine.openSession(outlet: writer, sessionID: "writer")
        var users = JSONValue.Members()
        for index in 0..<10 { users[CodeUnitString("u\(index)")] = ["conn": true, "last": 0] }
        try await send(
            [
                Self.signIn("w"), .put(path: Path("users"), data: .object(users), hash: nil),
                .put(path: Path("c/count"), data: 5, hash: nil),
            ], to: engine, outlet: writer)
        let timestamp: JSONValue = [".sv": "timestamp"]
        let increment: JSONValue = [".sv": ["increment": 1]]
        let first = try await session(
            "a", [("users/u1/conn", .null), ("users/u1/last", timestamp), ("c/count", increment), ("n/x", ["a": 1])],
            on: engine)
        let second = try await session(
            "b", [("users/u2", .null), ("n/x/b", 2), ("c/count", increment), ("users/u3/last", timestamp)], on: engine)
        let third = try await session("c", [("n/y", 3), ("n/y", .null), ("users/u1/conn", true)], on: engine)

        await engine.closeSessions(outlets: [first, second, third])
        try await barrier(engine)

        #expect(try await value("c/count", engine) == 7)
        #expect(try await value("n", engine) == ["x": ["a": 1, "b": 2]])
        #expect(try await value("users/u1", engine) == ["conn": true, "last": 1_000_000])
        #expect(try await value("users/u2", engine) == .null)
        #expect(try await value("users/u3", engine) == ["conn": true, "last": 1_000_000])
        #expect(try await value("users/u0", engine) == ["conn": true, "last": 0])
        #expect(try await value("users", engine).objectValue?.count == 9)
        let served = try await value("", engine)
        #expect(try await SQLiteStore(path: file).load().root.exportJSON == served)
        await engine.close()
    }

    @Test func listenersHearTheBatchOnceAndOnlyWhereItTouches() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let engine = try await open()
        let above = await listen("n", on: engine)
        let inside = await listen("n/x", on: engine)
        let beside = await listen("n/z", on: engine)
        var outlets: [Outlet] = []
        for index in 0..<50 {
            outlets.append(try await session("u\(index)", [("n/x/u\(index)", .int(Int64(index)))], on: engine))
        }
        try await barrier(engine)
        _ = (above.take(), inside.take(), beside.take())

        await engine.closeSessions(outlets: outlets)
        try await barrier(engine)

        let toAbove = above.take().filter(\.isPush)
        let toInside = inside.take().filter(\.isPush)
        #expect(toAbove.count == 1, "one message for the 50 writes: \(toAbove)")
        #expect(toAbove.first?.contains(#""u49":49"#) == true)
        #expect(toInside.count == 1, "\(toInside)")
        #expect(beside.take().filter(\.isPush).isEmpty, "n/z is not touched")
        #expect(try await value("n/x", engine).objectValue?.count == 50)
        await engine.close()
    }

    /// `count` sessions, the session of `uN` writing `n/uN` when it ends.
    func sessionsEachWritingOne(_ count: Int, on engine: DatabaseEngine) async throws -> [Outlet] {
        var outlets: [Outlet] = []
        for index in 0..<count {
            outlets.append(try await session("u\(index)", [("n/u\(index)", true)], on: engine))
        }
        return outlets
    }

    @Test func closesQueuedTogetherAllFinish() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let engine = try await open()
        let outlets = try await sessionsEachWritingOne(40, on: engine)
        await withTaskGroup(of: Void.self) { group in
            for outlet in outlets { group.addTask { await engine.closeSessionWithOthers(outlet: outlet) } }
        }
        #expect(await engine.sessionCount == 0, "each close returned once its session was closed")
        try await barrier(engine)
        #expect(try await value("n", engine).objectValue?.count == 40)
        await engine.close()
    }

    /// A session that ends with a request still on its way (its pump held at the engine's door):
    /// the request is handled first, then the session's onDisconnect write, as a closing
    /// WebSocket session orders them.
    @Test func aRequestStillOnItsWayGoesBeforeTheOnDisconnectWrite() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let engine = try await open()
        let outlet = try await session("u0", [("n/u0", "gone")], on: engine)
        let (gate, opener) = AsyncStream.makeStream(of: Void.self)
        let pump = RequestPump { batch in
            var gate = gate.makeAsyncIterator()
            _ = await gate.next()
            await engine.handle(batch, outlet: outlet)
        }
        let write = ClientRequest.put(path: Path("n/u0"), data: "written", hash: nil)
        pump.append(SessionRequest(number: 9, request: .success(write)))
        let (closed, closer) = AsyncStream.makeStream(of: Void.self)
        pump.finish { engine.closeSessionWithOthers(outlet: outlet) { closer.yield() } }
        // A write of the engine's own goes in and is stored meanwhile; the session still waits.
        try await barrier(engine)
        #expect(await engine.sessionCount == 1, "the session is not closed before its request is handled")
        opener.yield()
        var iterator = closed.makeAsyncIterator()
        _ = await iterator.next()
        try await barrier(engine)
        #expect(try await value("n/u0", engine) == "gone")
        await engine.close()
    }

    /// The form an event loop uses: no task waits, and each close is told once, when the batch it
    /// joined is closed.
    @Test func closesQueuedWithoutWaitingAreEachToldOnce() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let engine = try await open()
        let outlets = try await sessionsEachWritingOne(40, on: engine)
        let (told, teller) = AsyncStream.makeStream(of: Int.self)
        for (index, outlet) in outlets.enumerated() {
            engine.closeSessionWithOthers(outlet: outlet) { teller.yield(index) }
        }
        var seen = Set<Int>()
        for await index in told {
            #expect(seen.insert(index).inserted, "told once")
            if seen.count == outlets.count { break }
        }
        #expect(await engine.sessionCount == 0)
        try await barrier(engine)
        #expect(try await value("n", engine).objectValue?.count == 40)
        await engine.close()
    }
}

/// A session's outlet that keeps every message it is sent, to be read at any time.
final class OutletRecorder: Sendable {
    private final class Texts: Sendable {
        let list = Mutex<[String]>([])
    }

    private let texts = Texts()
    /// The outlet to open a session with.
    let outlet: Outlet

    init() {
        let texts = texts
        outlet = Outlet { item in
            if case .wire(let text) = item { texts.list.withLock { $0.append(text) } }
        }
    }

    /// The messages kept since the last call.
    func take() -> [String] {
        texts.list.withLock { list in
            defer { list = [] }
            return list
        }
    }
}

extension String {
    /// Whether this wire text is a data push (`d` or `m`), not a response.
    fileprivate var isPush: Bool { contains(#""a":"d""#) || contains(#""a":"m""#) }
}
