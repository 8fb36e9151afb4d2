import Foundation
import RTDBCore
import RTDBRules
import RTDBServer
import RTDBTestSupport
import RTDBWire
import Testing

/// A read sees every write the engine applied before it, from any connection, on the durable
/// server: the commit is held open on a real file (a held sync), so "before" is decided by the
/// test, and the read's answer must wait for it, then hold every write, or come at once without
/// the writes the disk refused.
///
/// The time limit turns a hang into a failure; it is no claim of speed (alone the suite takes
/// seconds, beside the whole suite on two cores it has taken over two minutes).
@Suite(.timeLimit(.minutes(10))) struct ReadAfterWriteTests {
    /// A durable server on a disk whose syncs the test holds, and a writer connection.
    struct Setup {
        var disk: FaultyDisk
        var server: TestServer
        var engine: DatabaseEngine
        var writer: WireTestClient

        /// Starts the server (with `rules`, open by default) and stores one write, so that the
        /// namespace's file exists before the disk is held.
        static func start(rules: SecurityRules = .open) async throws -> Setup {
            let disk = try FaultyDisk(files: "demo.")
            let server = try await TestServer.start(dataDirectory: disk.folder, configure: { $0.rules = rules })
            let writer = WireTestClient(url: server.webSocketURL)
            _ = try await writer.hello()
            #expect(try await writer.call(.put(path: Path("seed"), data: 0, hash: nil)).status == .ok)
            let engine = try await server.server.registry.lease("demo")
            server.server.registry.release("demo")
            return Setup(disk: disk, server: server, engine: engine, writer: writer)
        }

        /// Holds the disk's syncs and sends `count` puts under `a` (`a/k0` = 0 …), pipelined; returns
        /// their request numbers.
        func holdAndPut(_ count: Int = 10, under parent: String = "a") async -> [Int] {
            disk.holdSyncs(true)
            var numbers: [Int] = []
            for index in 0..<count {
                numbers.append(
                    await writer.send(.put(path: Path("\(parent)/k\(index)"), data: .int(Int64(index)), hash: nil)))
            }
            return numbers
        }

        /// Returns once the engine has applied every request the writer sent so far: a read the
        /// writes do not touch is answered at once, after them (a connection's requests are
        /// handled in order).
        func writerApplied() async throws {
            #expect(try await writer.call(.get(path: Path("elsewhere"), query: .default)).status == .ok)
        }

        /// Returns once `count` reads wait for the held commit.
        func readsWait(_ count: Int) async throws {
            await engine.until { $0.readsWaiting == count }
        }

        func stop(_ clients: WireTestClient...) async {
            disk.holdSyncs(false)
            for client in clients { await client.close() }
            await writer.close()
            await server.stop()
        }
    }

    /// `a` = {k0: 0, …}, as ``Setup/holdAndPut(_:under:)`` writes it.
    static func children(_ count: Int) -> JSONValue {
        var members = JSONValue.Members()
        for index in 0..<count { members[CodeUnitString("k\(index)")] = .int(Int64(index)) }
        return .object(members)
    }

    /// Whether `json` is or holds a number.
    static func holdsANumber(_ json: JSONValue) -> Bool {
        switch json {
        case .number: return true
        case .object(let members): return members.values.contains(where: holdsANumber)
        case .array(let values): return values.contains(where: holdsANumber)
        case .null, .bool, .string: return false
        }
    }

    /// The data of the first data push at `path` in `messages`.
    static func firstData(at path: String, in messages: [WireMessage]) -> JSONValue? {
        for message in messages {
            if case .push(.data(let at, let data, _)) = message, at == Path(path) { return data }
        }
        return nil
    }

    static func newClient(_ server: TestServer) async throws -> WireTestClient {
        let client = WireTestClient(url: server.webSocketURL)
        _ = try await client.hello()
        return client
    }

    @Test func aConnectionsListenAfterItsOwnPutsHearsThemAllBeforeItsOK() async throws {
        let setup = try await Setup.start()
        let puts = await setup.holdAndPut()
        let listen = await setup.writer.send(.listen(path: Path("a"), query: .default, tag: nil, hash: ""))
        try await setup.readsWait(1)

        setup.disk.holdSyncs(false)
        let messages = try await setup.writer.collect(until: listen)
        #expect(Self.firstData(at: "a", in: messages) == Self.children(10), "\(messages)")
        let answered = messages.compactMap { message -> Int? in
            if case .response(let number, .ok, _) = message { return number }
            return nil
        }
        #expect(answered == puts + [listen], "every put's ok, in order, then the listen's")
        await setup.stop()
    }

    @Test func aConnectionsRequestsAfterAWaitingListenWaitBehindIt() async throws {
        let setup = try await Setup.start()
        let writer = setup.writer
        let put = await setup.holdAndPut(1)
        let listen = await writer.send(.listen(path: Path("a"), query: .default, tag: nil, hash: ""))
        let onDisconnect = await writer.send(.onDisconnectPut(path: Path("status/writer"), data: "offline"))
        let later = await writer.send(.put(path: Path("a/later"), data: "after the listen", hash: nil))
        try await setup.readsWait(1)

        setup.disk.holdSyncs(false)
        let messages = try await writer.collect(until: later)
        #expect(Self.firstData(at: "a", in: messages) == ["k0": 0], "the put after the listen is not in its first data")
        let answered = messages.compactMap { message -> Int? in
            if case .response(let number, .ok, _) = message { return number }
            return nil
        }
        #expect(answered == put + [listen, onDisconnect, later], "answered in the order sent: \(messages)")
        let heardLater = messages.contains {
            if case .push(.data(let path, "after the listen", _)) = $0 { return path == Path("a/later") }
            return false
        }
        #expect(heardLater, "the listen hears the later put as an update")
        await setup.stop()
    }

    @Test func othersReadEveryWriteTheEngineAppliedBeforeTheirRead() async throws {
        let setup = try await Setup.start()
        let puts = await setup.holdAndPut()
        try await setup.writerApplied()

        let listener = try await Self.newClient(setup.server)
        let listen = await listener.send(.listen(path: Path("a"), query: .default, tag: nil, hash: ""))
        let getter = try await Self.newClient(setup.server)
        let get = await getter.send(.get(path: Path("a/k3"), query: .default))
        let port = setup.server.port
        let rest = Task { try await http("GET", "/a.json", port: port) }
        let stream = try await RawTCPClient(port: port)
        try await stream.write("GET /a.json HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n")
        // A read beside the writes is answered at once (the getter's own requests wait behind its get).
        #expect(try await setup.writer.call(.get(path: Path("b"), query: .default)).status == .ok)
        try await setup.readsWait(4)

        setup.disk.holdSyncs(false)
        let heard = try await listener.collect(until: listen)
        #expect(Self.firstData(at: "a", in: heard) == Self.children(10), "\(heard)")
        let got = try await getter.response(to: get)
        #expect(got.status == .ok && got.data == 3)
        #expect(try await rest.value.json == Self.children(10))
        _ = try await stream.read(until: "\r\n\r\n")
        let put = try await stream.read(until: "\n\n")
        #expect(
            put.contains(#"data: {"path":"/","data":{"k0":0,"k1":1,"k2":2"#) && put.contains(#""k9":9}}"#), "\(put)")
        #expect(try await setup.writer.response(to: puts.last ?? 0).status == .ok)
        await stream.close()
        await setup.stop(listener, getter)
    }

    @Test func aQuerysFirstDataHoldsThePipelinedWritesBeforeIt() async throws {
        let setup = try await Setup.start()
        _ = await setup.holdAndPut()
        let lastThree = try QueryParams(wireObject: ["l": 3, "vf": "r", "i": ".key"])
        let listen = await setup.writer.send(.listen(path: Path("a"), query: lastThree, tag: 1, hash: ""))
        try await setup.readsWait(1)

        setup.disk.holdSyncs(false)
        let messages = try await setup.writer.collect(until: listen)
        #expect(Self.firstData(at: "a", in: messages) == ["k7": 7, "k8": 8, "k9": 9], "\(messages)")
        await setup.stop()
    }

    @Test func aListenAfterAnotherConnectionClosedHearsItsOnDisconnectWrite() async throws {
        let setup = try await Setup.start()
        let leaving = try await Self.newClient(setup.server)
        let registered = try await leaving.call(.onDisconnectPut(path: Path("status/leaving"), data: "offline"))
        #expect(registered.status == .ok)
        #expect(try await leaving.call(.put(path: Path("status/leaving"), data: "online", hash: nil)).status == .ok)

        setup.disk.holdSyncs(true)
        await leaving.close()
        let engine = setup.engine
        await engine.until { $0.sessions == 1 }  // the engine handled the close
        let listen = await setup.writer.send(.listen(path: Path("status"), query: .default, tag: nil, hash: ""))
        try await setup.readsWait(1)

        setup.disk.holdSyncs(false)
        let messages = try await setup.writer.collect(until: listen)
        #expect(Self.firstData(at: "status", in: messages) == ["leaving": "offline"], "\(messages)")
        await setup.stop()
    }

    @Test func aReadGrantWrittenJustBeforeAListenLetsItIn() async throws {
        let rules = try SecurityRules(
            text: #"""
                {"rules": {
                  ".write": "auth != null",
                  "seed": {".write": true},
                  "rooms": {"$room": {".read": "root.child('grants').child(auth.uid).val() === $room"}}
                }}
                """#)
        let setup = try await Setup.start(rules: rules)
        #expect(try await setup.writer.call(.auth(credential: "owner", authVariable: nil)).status == .ok)
        #expect(try await setup.writer.call(.put(path: Path("rooms/blue/topic"), data: "tea", hash: nil)).status == .ok)
        let reader = try await Self.newClient(setup.server)
        let token = AuthToken.emulatorToken(uid: "morgan")
        #expect(try await reader.call(.auth(credential: token, authVariable: nil)).status == .ok)
        #expect(try await reader.call(.get(path: Path("rooms/blue"), query: .default)).status == .permissionDenied)

        setup.disk.holdSyncs(true)
        let engine = setup.engine
        let before = await engine.sequence
        let grant = await setup.writer.send(.put(path: Path("grants/morgan"), data: "blue", hash: nil))
        // Rules that read data make every read wait for every pending write: the engine's count
        // of applied writes tells when the grant is applied.
        await engine.until { $0.appliedWrites == before + 1 }  // the grant is applied
        let listen = await reader.send(.listen(path: Path("rooms/blue"), query: .default, tag: nil, hash: ""))
        try await setup.readsWait(1)

        setup.disk.holdSyncs(false)
        let messages = try await reader.collect(until: listen)
        guard case .response(_, let status, _) = messages.last else { throw TestFailure("no response") }
        #expect(status == .ok, "the grant applied before the listen lets it in: \(messages)")
        #expect(Self.firstData(at: "rooms/blue", in: messages) == ["topic": "tea"])
        #expect(try await setup.writer.response(to: grant).status == .ok)
        await setup.stop(reader)
    }

    @Test func readsWaitingOnARefusedCommitAreAnsweredWithoutItsWrites() async throws {
        let setup = try await Setup.start()
        let puts = await setup.holdAndPut()
        try await setup.writerApplied()
        let listener = try await Self.newClient(setup.server)
        let listen = await listener.send(.listen(path: Path("a"), query: .default, tag: nil, hash: ""))
        let port = setup.server.port
        let rest = Task { try await http("GET", "/a/k1.json", port: port) }
        try await setup.readsWait(2)

        // The disk refuses the held commit: the reads answer at once, without the refused writes.
        setup.disk.failSyncs(true)
        setup.disk.holdSyncs(false)
        let heard = try await listener.collect(until: listen)
        // Nothing there, as the client's empty hash says: no data, or null.
        #expect([nil, .null].contains(Self.firstData(at: "a", in: heard)), "\(heard)")
        #expect(try await rest.value.body == "null")
        #expect(try await setup.writer.response(to: puts[0]).status == .unavailable)
        setup.disk.failSyncs(false)

        // The disk takes writes again; the listen hears them, and never heard a refused one.
        #expect(try await setup.writer.call(.put(path: Path("a/k0"), data: "again", hash: nil)).status == .ok)
        let after = try await listener.call(.get(path: Path("a"), query: .default))
        #expect(after.data == ["k0": "again"])
        let everything = heard + after.before
        let refused = everything.contains {
            if case .push(.data(_, let data, _)) = $0 { return Self.holdsANumber(data) }
            return false
        }
        #expect(!refused, "no refused value (a number) was ever sent: \(everything)")
        await setup.stop(listener)
    }

    @Test func tenPipelinedPutsThenAListenHearAllTenUnderOtherClientsWrites() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try await TestServer.start(dataDirectory: directory)
        // Two other clients write throughout: each round, ten pipelined puts each, sent before the
        // round's own and answered after its listen (a load bounded by the rounds, so that the
        // rest of the suite beside it is not starved).
        let others = [try await Self.newClient(server), try await Self.newClient(server)]
        let client = try await Self.newClient(server)
        var whole = 0
        for round in 0..<100 {
            var lastOfOthers: [Int] = []
            for (writer, other) in others.enumerated() {
                var last = 0
                for index in 0..<10 {
                    last = await other.send(
                        .put(path: Path("load/\(writer)/k\(index)"), data: .int(Int64(round)), hash: nil))
                }
                lastOfOthers.append(last)
            }
            for index in 0..<10 {
                await client.send(.put(path: Path("rounds/r\(round)/k\(index)"), data: .int(Int64(index)), hash: nil))
            }
            let listen = await client.send(.listen(path: Path("rounds/r\(round)"), query: .default, tag: nil, hash: ""))
            let messages = try await client.collect(until: listen)
            if Self.firstData(at: "rounds/r\(round)", in: messages) == Self.children(10) { whole += 1 }
            for (other, last) in zip(others, lastOfOthers) {
                #expect(try await other.response(to: last).status == .ok)
            }
        }
        #expect(whole == 100, "all ten in the data before the ok in \(whole) of 100 rounds")
        for other in others { await other.close() }
        await client.close()
        await server.stop()
    }
}
