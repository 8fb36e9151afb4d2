import Foundation
import RTDBCore
import RTDBServer
import RTDBTestSupport
import RTDBWire
import Testing

/// A namespace whose disk fails or stalls, through a fault-injecting SQLite VFS on real files:
/// writes it cannot store are refused soon and never seen, reads and other namespaces go on, and
/// it recovers by itself.
@Suite struct DiskFaultTests {
    /// Whether any data push in `messages` carries `value`.
    static func heard(_ value: JSONValue, in messages: [WireMessage]) -> Bool {
        messages.contains {
            if case .push(.data(_, let data, _)) = $0 { return data == value }
            return false
        }
    }

    /// A server on a faulty disk (namespace `demo`), a writer that has stored `a` = 1, and a reader.
    static func serverWithAWriterAndAReader() async throws -> (FaultyDisk, TestServer, WireTestClient, WireTestClient) {
        let disk = try FaultyDisk(files: "demo.")
        let server = try await TestServer.start(dataDirectory: disk.folder)
        let writer = WireTestClient(url: server.webSocketURL)
        _ = try await writer.hello()
        let reader = WireTestClient(url: server.webSocketURL)
        _ = try await reader.hello()
        #expect(try await writer.call(.put(path: Path("a"), data: 1, hash: nil)).status == .ok)
        return (disk, server, writer, reader)
    }

    /// The namespace takes `a` = 4 again, the reader's listen hears it, and no message the reader
    /// had (`earlier` and since) carried the refused values 2 and 3.
    static func takesAWriteAndNeverShowedTheRefused(
        _ writer: WireTestClient, _ reader: WireTestClient, earlier: [WireMessage]
    ) async throws {
        #expect(try await writer.call(.put(path: Path("a"), data: 4, hash: nil)).status == .ok)
        let after = try await reader.call(.get(path: Path("a"), query: .default))
        let messages = earlier + after.before
        #expect(Self.heard(4, in: after.before))
        #expect(!Self.heard(2, in: messages) && !Self.heard(3, in: messages), "\(messages)")
    }

    /// What a new server on the disk's folder reads at the root of `demo`.
    static func storedAfterARestart(_ disk: FaultyDisk) async throws -> JSONValue {
        let restarted = try await TestServer.start(dataDirectory: disk.folder)
        let again = WireTestClient(url: restarted.webSocketURL)
        _ = try await again.hello()
        let stored = try await again.call(.get(path: .root, query: .default)).data
        await again.close()
        await restarted.stop()
        return stored
    }

    @Test func aWriteTheDiskCannotTakeIsRefusedNeverSeenAndTheNamespaceRecovers() async throws {
        let (disk, server, writer, reader) = try await Self.serverWithAWriterAndAReader()
        let listen = try await reader.call(.listen(path: Path("a"), query: .default, tag: nil, hash: ""))
        #expect(listen.status == .ok && Self.heard(1, in: listen.before))

        disk.fill(after: 0)
        let refused = try await writer.call(.put(path: Path("a"), data: 2, hash: nil))
        #expect(refused.status == .unavailable, "\(refused)")
        #expect(refused.data.stringValue?.contains("could not store") == true)
        let merge = try await writer.call(.merge(path: .root, data: ["b": 2]))
        #expect(merge.status == .unavailable)
        let onDisconnect = try await writer.call(.onDisconnectPut(path: Path("gone"), data: true))
        #expect(onDisconnect.status == .unavailable, "an onDisconnect the disk did not take is refused")
        let rest = try await http("PUT", "/a.json?ns=demo", port: server.port, body: "3")
        #expect(rest.status == 503, "\(rest.body)")
        #expect(disk.failures > 0)

        // Reads go on, with what is stored; another namespace (another file) is served.
        let read = try await reader.call(.get(path: Path("a"), query: .default))
        #expect(read.status == .ok && read.data == 1)
        let restRead = try await http("GET", "/a.json?ns=demo", port: server.port)
        #expect(restRead.status == 200 && restRead.body == "1")
        let other = WireTestClient(url: "ws://127.0.0.1:\(server.port)/.ws?v=5&ns=other")
        _ = try await other.hello()
        #expect(try await other.call(.put(path: Path("x"), data: 1, hash: nil)).status == .ok)

        // Room again: the namespace takes writes by itself, and readers never saw the refused ones.
        disk.fill(after: nil)
        try await Self.takesAWriteAndNeverShowedTheRefused(writer, reader, earlier: listen.before + read.before)
        await writer.close()
        await reader.close()
        await other.close()
        await server.stop()

        let stored = try await Self.storedAfterARestart(disk)
        #expect(stored == ["a": 4], "only what was acknowledged is stored: \(stored)")
    }

    @Test func readsBesideACommitThatWaitsOnTheDiskAreServedAtOnce() async throws {
        let (disk, server, writer, reader) = try await Self.serverWithAWriterAndAReader()
        #expect(try await writer.call(.put(path: Path("b"), data: 1, hash: nil)).status == .ok)

        disk.holdSyncs(true)
        let pending = await writer.send(.put(path: Path("a"), data: 2, hash: nil))
        #expect(try await eventually { disk.heldSyncs > 0 }, "the commit waits on its sync")
        // Reads the held write does not touch: what is stored, at once.
        let read = try await reader.call(.get(path: Path("b"), query: .default))
        #expect(read.status == .ok && read.data == 1)
        let listen = try await reader.call(.listen(path: Path("b"), query: .default, tag: nil, hash: ""))
        #expect(listen.status == .ok && Self.heard(1, in: listen.before))
        let restRead = try await http("GET", "/b.json?ns=demo", port: server.port)
        #expect(restRead.body == "1")

        // A read of what the write touches waits for it (ReadAfterWriteTests has the rest).
        let ownRead = await writer.send(.get(path: Path("a"), query: .default))
        disk.holdSyncs(false)
        #expect(try await writer.response(to: pending).status == .ok)
        let own = try await writer.response(to: ownRead)
        #expect(own.status == .ok && own.data == 2, "the writer reads its own write: \(own)")
        await writer.close()
        await reader.close()
        await server.stop()
    }

    @Test func aStopIsNotHeldByADiskThatHangs() async throws {
        let disk = try FaultyDisk(files: "demo.")
        let server = try await TestServer.start(dataDirectory: disk.folder)
        #expect(try await http("PUT", "/a.json?ns=demo", port: server.port, body: "1").status == 200)
        disk.holdSyncs(true)
        defer { disk.holdSyncs(false) }
        let writer = Task { try await http("PUT", "/a.json?ns=demo", port: server.port, body: "2") }
        #expect(try await eventually { disk.heldSyncs > 0 }, "the commit hangs in its sync")
        let stopped = Recorder<Bool>()
        Task {
            await server.stop()
            stopped.record(true)
        }
        #expect(await stopped.wait { $0 == [true] }, "the stop gives up what the disk holds")
        let answer = try await writer.value
        #expect(answer.status == 503, "never acknowledged: \(answer.status) \(answer.body)")
    }

    @Test func aCommitThatWaitsOnTheDiskDoesNotEndALiveSession() async throws {
        // Time moves only when the test says; the disk holds the commit until the test lets it go.
        let disk = try FaultyDisk(files: "demo.")
        let time = TestTime()
        let server = try await TestServer.start(
            dataDirectory: disk.folder, heartbeatTimeout: .seconds(15), time: time.source)
        let raw = try await RawTCPClient(port: server.port)
        try await raw.upgradeToWebSocket(target: "/.ws?v=5&ns=demo")
        _ = try await raw.read(until: #""t":"h""#)
        let session = try #require(server.server.connections.connections.first?.sessionID)
        disk.holdSyncs(true)
        defer { disk.holdSyncs(false) }
        try await raw.sendWebSocketText(#"{"t":"d","d":{"r":1,"a":"p","b":{"p":"/a","d":1}}}"#)
        #expect(try await eventually { disk.heldSyncs > 0 }, "the write's commit waits on its sync")

        // Two heartbeat timeouts pass while it waits: the client answers every ping and keeps its
        // session.
        for tick in 1...4 {
            await time.advance(by: .milliseconds(7_501))
            try await raw.readWebSocketPing("hb")
            #expect(try await until(server.server.metrics.changes) { server.server.heartbeatTicksJudged >= tick })
            try await raw.sendWebSocketPong("hb")
            #expect(
                try await until(server.server.connections.changes) {
                    server.server.connections[session]?.lastHeardAt == time.now
                })
        }
        #expect(server.server.connections[session] != nil, "a live client outlives a slow disk")
        disk.holdSyncs(false)
        _ = try await raw.read(until: #""r":1"#)
        await raw.close()
        await server.stop()
    }

    @Test func everyRESTWriteOnAFullDiskIsAnswered503AndNoneIsTakenForAnother() async throws {
        let disk = try FaultyDisk(files: "demo.")
        let server = try await TestServer.start(dataDirectory: disk.folder)
        #expect(try await http("PUT", "/a.json?ns=demo", port: server.port, body: "0").status == 200)
        for round in 1...3 {
            disk.fill(after: 0)
            // Many at once: each must be answered, and 503, even when a batch is refused between
            // its write and its wait (the numbers of refused writes are made again).
            let answers = Recorder<Int>()
            for index in 0..<12 {
                Task {
                    let body = "\(round * 100 + index)"
                    answers.record(
                        (try? await http("PUT", "/a.json?ns=demo", port: server.port, body: body))?.status ?? 0)
                }
            }
            #expect(await answers.wait { $0.count == 12 }, "round \(round): every write answered")
            #expect(answers.all.allSatisfy { $0 == 503 }, "round \(round): \(answers.all)")
            disk.fill(after: nil)
            #expect(try await http("PUT", "/a.json?ns=demo", port: server.port, body: "\(round)").status == 200)
            #expect(try await http("GET", "/a.json?ns=demo", port: server.port).body == "\(round)")
        }
        await server.stop()
    }
}

extension DiskFaultTests {
    @Test func aSyncTheDiskFailsRefusesTheWriteAndTheNamespaceRecovers() async throws {
        // The write reaches the file, but its sync fails (an I/O error, not a full disk): it is
        // not durable, so it is refused and never seen, as on a full disk.
        let (disk, server, writer, reader) = try await Self.serverWithAWriterAndAReader()
        let listen = try await reader.call(.listen(path: Path("a"), query: .default, tag: nil, hash: ""))
        disk.failSyncs(true)
        let refused = try await writer.call(.put(path: Path("a"), data: 2, hash: nil))
        #expect(refused.status == .unavailable, "\(refused)")
        let rest = try await http("PUT", "/a.json?ns=demo", port: server.port, body: "3")
        #expect(rest.status == 503, "\(rest.body)")
        let read = try await reader.call(.get(path: Path("a"), query: .default))
        #expect(read.status == .ok && read.data == 1, "reads go on with what is stored")

        disk.failSyncs(false)
        try await Self.takesAWriteAndNeverShowedTheRefused(writer, reader, earlier: listen.before + read.before)
        await writer.close()
        await reader.close()
        await server.stop()

        #expect(try await Self.storedAfterARestart(disk) == ["a": 4])
    }

    @Test func aRestartRightAfterAFailedSyncStoresWhatWasAcknowledged() async throws {
        let (disk, server, writer, _) = try await Self.serverWithAWriterAndAReader()
        disk.failSyncs(true)
        #expect(try await writer.call(.put(path: Path("a"), data: 2, hash: nil)).status == .unavailable)
        await writer.close()
        await server.stop()
        disk.failSyncs(false)

        let stored = try await Self.storedAfterARestart(disk)
        #expect(stored == ["a": 1], "\(stored)")
    }
}
