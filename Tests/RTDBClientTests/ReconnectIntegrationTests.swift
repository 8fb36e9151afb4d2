import Foundation
import RTDBCore
import RTDBTestSupport
import Testing

@testable import RTDBClient

@Suite struct ReconnectIntegrationTests {
    @Test func writesMadeWhileTheServerIsDownArriveAfterItReturns() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = try await TestServer.start(dataDirectory: directory)
        let port = first.port
        let client = Database(url: "http://127.0.0.1:\(port)?ns=demo")
        let connected = Recorder<Bool>()
        let seen = Recorder<String>()
        client.reference(withPath: ".info/connected").observe(.value) { connected.record($0.value as? Bool ?? false) }
        client.reference(withPath: "notes").observe(.value) { snapshot in
            seen.record((try? JSONValue(any: snapshot.value).jsonString) ?? "?")
        }
        try await client.reference(withPath: "notes/a").setValue("before")
        #expect(try await eventually { seen.last == #"{"a":"before"}"# })
        await first.stop()
        #expect(try await eventually { connected.last == false })
        // Offline: the write shows locally at once and waits in the queue.
        let acknowledged = Recorder<Bool>()
        client.reference(withPath: "notes/b").setValue("while down") { error, _ in acknowledged.record(error == nil) }
        #expect(try await eventually { seen.last == #"{"a":"before","b":"while down"}"# })
        #expect(acknowledged.all.isEmpty)
        let second = try await TestServer.start(dataDirectory: directory, configure: { $0.port = port })
        #expect(try await eventually { connected.last == true })
        #expect(try await eventually { acknowledged.all == [true] })
        let stored = try await http("GET", "/notes.json", port: port).json
        #expect(stored == ["a": "before", "b": "while down"])
        // The listen was restored: a change made by someone else arrives.
        _ = try await http("PUT", "/notes/c.json", port: port, body: #""from REST""#)
        #expect(try await eventually { seen.last == #"{"a":"before","b":"while down","c":"from REST"}"# })
        client.close()
        await second.stop()
    }

    @Test func credentialsReachTheServerOnTheLiveConnection() async throws {
        let server = try await TestServer.start()
        let client = Database(url: "http://127.0.0.1:\(server.port)?ns=demo")
        try await client.reference(withPath: "x").setValue(1)
        client.setCredential(.emulatorUser(uid: "morgan"))
        #expect(try await eventually { server.server.connections.connections.first?.authUID == "morgan" })
        client.setCredential(.admin)
        #expect(try await eventually { server.server.connections.connections.first?.authUID == "owner" })
        client.setCredential(nil)
        #expect(try await eventually { server.server.connections.connections.first?.authUID == nil })
        client.close()
        await server.stop()
    }
}
