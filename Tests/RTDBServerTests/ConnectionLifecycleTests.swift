import Foundation
import RTDBCore
import RTDBServer
import RTDBTestSupport
import RTDBWire
import Testing

@Suite(.timeLimit(.minutes(10))) struct ConnectionLifecycleTests {
    @Test func silentConnectionTimesOutAndItsOnDisconnectRuns() async throws {
        // Time moves only when the test says: a busy machine can neither end a healthy session
        // early nor make this one wait.
        let time = TestTime()
        let start = time.now
        let server = try await TestServer.start(heartbeatTimeout: .seconds(15), time: time.source)
        let raw = try await RawTCPClient(port: server.port)
        try await raw.upgradeToWebSocket(target: "/.ws?v=5&ns=demo")
        _ = try await raw.read(until: #""t":"h""#)
        let session = try #require(server.server.connections.connections.first?.sessionID)
        try await raw.sendWebSocketText(
            #"{"t":"d","d":{"r":1,"a":"o","b":{"p":"/devices/d1","d":{"online":false,"seen":{".sv":"timestamp"}}}}}"#)
        _ = try await raw.read(until: #""r":1"#)

        // Half the timeout: a ping (opcode 9, payload "hb"). The client answers it, and the server
        // hears the answer.
        await time.advance(by: .milliseconds(7_501))
        try await raw.readWebSocketPing("hb")
        #expect(try await until(server.server.metrics.changes) { server.server.heartbeatTicksJudged >= 1 })
        try await raw.sendWebSocketPong("hb")
        #expect(
            try await until(server.server.connections.changes) {
                server.server.connections[session]?.lastHeardAt == time.now
            })
        await time.advance(by: .milliseconds(7_500))
        try await raw.readWebSocketPing("hb")
        #expect(try await until(server.server.metrics.changes) { server.server.heartbeatTicksJudged >= 2 })
        #expect(server.server.connections[session] != nil, "a client that answers keeps its session")

        // From now on the client answers nothing: at the next tick the session ends as if it had
        // closed, and its onDisconnect runs.
        #expect(try await http("GET", "/devices/d1.json", port: server.port).json == .null)
        await time.advance(by: .milliseconds(7_500))
        await raw.waitUntilClosed()
        let data = try await http("GET", "/devices/d1.json", port: server.port).json
        #expect(data?["online"] == false)
        let seen = try #require(data?["seen"]?.intValue)
        #expect(
            (start.millisecondsSince1970 + 22_500...time.now.millisecondsSince1970).contains(seen),
            "stamped at the third tick, 3 × 7.5 s in")
        #expect(server.server.connections.connections.isEmpty)
        await raw.close()
        await server.stop()
    }

    @Test func aStoppingServerClosesItsSessionsAndStreamsAndKeepsWhatItAcknowledged() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // The raw client answers no ping: a heartbeat it could outlive on a loaded machine (a CI
        // run took 51 s here) would end its session first, without the close frame looked for.
        let server = try await TestServer.start(dataDirectory: directory, heartbeatTimeout: .seconds(600))
        let session = try await RawTCPClient(port: server.port)
        try await session.upgradeToWebSocket(target: "/.ws?v=5&ns=demo")
        _ = try await session.read(until: #""t":"h""#)
        try await session.sendWebSocketText(#"{"t":"d","d":{"r":1,"a":"p","b":{"p":"/kept","d":"acknowledged"}}}"#)
        _ = try await session.read(until: #""r":1"#)
        try await session.sendWebSocketText(#"{"t":"d","d":{"r":2,"a":"o","b":{"p":"/left","d":true}}}"#)
        _ = try await session.read(until: #""r":2"#)
        let stream = try await RawTCPClient(port: server.port)
        try await stream.write("GET /kept.json HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n")
        _ = try await stream.read(until: "event: put")

        // Both peers stay: the server ends them itself. Nothing in the test bounds the stop.
        await server.stop()
        #expect(try await session.readWebSocketCloseCode() == 1000, "a WebSocket close frame: a normal closure")
        _ = try await stream.readToEnd()  // the stream ended

        let restarted = try await TestServer.start(dataDirectory: directory)
        #expect(try await http("GET", "/kept.json", port: restarted.port).json == "acknowledged")
        #expect(try await http("GET", "/left.json", port: restarted.port).json == true, "its onDisconnect ran")
        await session.close()
        await stream.close()
        await restarted.stop()
    }

    @Test func reconnectWithLastSessionEndsTheOldSession() async throws {
        let server = try await TestServer.start()
        let first = WireTestClient(url: server.webSocketURL)
        let session = try await first.hello().sessionID
        _ = try await first.call(.onDisconnectPut(path: Path("ghost"), data: nil))
        _ = try await first.call(.put(path: Path("ghost"), data: "here", hash: nil))
        let second = WireTestClient(url: server.webSocketURL + "&ls=\(session)")
        _ = try await second.hello()
        let cleaned = try await until(server.server.metrics.changes) {
            try await second.call(.get(path: Path("ghost"), query: .default)).data == .null
        }
        #expect(cleaned)
        #expect(server.server.connections[session] == nil)
        await first.close()
        await second.close()
        await server.stop()
    }

    /// A client that reconnects with `ls=` ends its old session at once, even when the old
    /// connection is half open (its peer will never answer the close): the old onDisconnect runs
    /// before the heartbeat could notice. (Was, for a while: the old session waited for the
    /// heartbeat, and presence showed the device's old entry meanwhile.)
    @Test func aHalfOpenSessionSupersededByItsClientEndsAtOnce() async throws {
        // A heartbeat far too slow to be what ends it.
        let server = try await TestServer.start(heartbeatTimeout: .seconds(600))
        let raw = try await RawTCPClient(port: server.port)
        try await raw.upgradeToWebSocket(target: "/.ws?v=5&ns=demo")
        _ = try await raw.read(until: #""t":"h""#)
        let session = try #require(server.server.connections.connections.first?.sessionID)
        try await raw.sendWebSocketText(#"{"t":"d","d":{"r":1,"a":"o","b":{"p":"/ghost","d":null}}}"#)
        try await raw.sendWebSocketText(#"{"t":"d","d":{"r":2,"a":"p","b":{"p":"/ghost","d":"here"}}}"#)
        _ = try await raw.read(until: #""r":2"#)
        // From now on the old connection reads and answers nothing.
        let second = WireTestClient(url: server.webSocketURL + "&ls=\(session)")
        _ = try await second.hello()
        let cleaned = try await until(server.server.metrics.changes) {
            try await second.call(.get(path: Path("ghost"), query: .default)).data == .null
        }
        #expect(cleaned, "the old session's onDisconnect ran at once")
        #expect(try await until(server.server.connections.changes) { server.server.connections[session] == nil })
        await raw.close()
        await second.close()
        await server.stop()
    }

    @Test func connectionTableAndAdminEndpoint() async throws {
        let server = try await TestServer.start()
        let client = WireTestClient(url: server.webSocketURL)
        let session = try await client.hello().sessionID
        let auth = try await client.call(.auth(credential: AuthToken.emulatorToken(uid: "morgan"), authVariable: nil))
        #expect(auth.status == .ok)
        #expect(auth.data["auth"]?["uid"] == "morgan")
        #expect(auth.data["expires"] == 3600)
        _ = try await client.call(.listen(path: Path("a"), query: .default, tag: nil, hash: ""))
        _ = try await client.call(.onDisconnectPut(path: Path("a/b"), data: nil))
        let info = try #require(server.server.connections[session])
        #expect(info.authUID == "morgan")
        #expect(info.namespace == "demo")
        #expect(info.peerAddress.hasPrefix("127.0.0.1:"))
        #expect(info.onDisconnectCount == 1)
        #expect(info.listenCount == 1)
        #expect(info.lastHeardAt >= info.connectedAt)

        let denied = try await http("GET", "/.admin/connections.json", port: server.port)
        #expect(denied.status == 401)
        let listed = try await http(
            "GET", "/.admin/connections.json", port: server.port, headers: ["Authorization": "Bearer owner"])
        #expect(listed.status == 200)
        #expect(listed.json?.arrayValue?.first?["sessionId"] == .string(session))
        #expect(listed.json?.arrayValue?.first?["uid"] == "morgan")

        let bad = try await client.call(.auth(credential: "not-a-token", authVariable: nil))
        #expect(bad.status == .invalidToken)
        #expect(try await client.call(.gauth(credential: "owner", authVariable: nil)).status == .ok)
        #expect(server.server.connections[session]?.authUID == "owner")
        await client.close()
        await server.stop()
    }
}
