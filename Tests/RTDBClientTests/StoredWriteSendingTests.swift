import Foundation
import GRDB
import RTDBCore
import RTDBTestSupport
import Synchronization
import Testing

@testable import RTDBClient

/// Writes restored from disk go out as their stored text, checked, against a real server and a
/// real SQLite file edited by hand between two runs.
@Suite struct StoredWriteSendingTests {
    /// A set made here carries its node's export text, made once: the request sends it as it is,
    /// the queue counts and stores it, and its data reads back as the node's export.
    @Test func aSetMadeHereCarriesItsExportText() throws {
        let node = try Node(json: [
            "b": 1, "a": ["x": "é\"", ".priority": 2], "c": false, "at": [".sv": "timestamp"],
            "n": [".sv": ["increment": 1]],
        ])
        let write = StoredWrite(
            id: 7, kind: .set, path: Path("p/q"), node: node, enqueuedAt: UnixTime(millisecondsSince1970: 0))
        #expect(write.dataText == node.exportJSONString)
        #expect(write.dataText == node.exportJSON.jsonString, "the same text the JSON value writes")
        guard case .checkedText(let text)? = write.putData else {
            Issue.record("a node's own export goes out as its text")
            return
        }
        #expect(text == node.exportJSONString)
        #expect(write.data == node.exportJSON)
        #expect(write.setNode == node)
        let removal = StoredWrite(
            id: 8, kind: .remove, path: Path("p"), node: .empty, enqueuedAt: UnixTime(millisecondsSince1970: 0))
        #expect(removal.dataText == "null")
    }

    /// A row edited into other valid JSON goes out exactly as it now reads; a row that is no
    /// longer JSON, and an update that is no longer an object, never reach the wire: they are
    /// dropped and their local effect undone, while the writes around them arrive.
    @Test func editedRowsGoOutAsTheyReadOrNotAtAll() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try await TestServer.start()
        #expect(try await http("PUT", "/edited/corrupt.json", port: server.port, body: #""kept""#).status == 200)
        let first = PersistenceIntegrationTests.client(port: server.port, directory: directory)
        first.goOffline()
        first.reference(withPath: "edited/spaced").setValue(["n": 0], andPriority: nil)
        first.reference(withPath: "edited/corrupt").setValue(["n": 0], andPriority: nil)
        first.reference(withPath: "edited/merge").updateChildValues(["a": 1], withCompletionBlock: nil)
        first.reference(withPath: "edited/plain").setValue(["n": 2], andPriority: nil)
        let file = first.persistenceFile(in: directory)
        first.close()

        let spaced = #"{ "n" : 1 , "m" : [ 2, "é" ] }"#
        let queue = try DatabaseQueue(path: file.path)
        try await queue.write { db in
            try db.execute(sql: "UPDATE writes SET data = ? WHERE path = '/edited/spaced'", arguments: [spaced])
            try db.execute(sql: #"UPDATE writes SET data = '{"n":' WHERE path = '/edited/corrupt'"#)
            try db.execute(sql: "UPDATE writes SET data = '[1]' WHERE path = '/edited/merge'")
        }
        try queue.close()

        let frames = Mutex<[String]>([])
        let transport = InterceptingTransport { frame in
            frames.withLock { $0.append(frame) }
            return .forward
        }
        let second = PersistenceIntegrationTests.client(port: server.port, directory: directory, transport: transport)
        let local = Recorder<JSONValue>()
        second.reference(withPath: "edited").observe(.value) { local.record((try? JSONValue(any: $0.value)) ?? .null) }
        await second.waitForPendingWrites()
        #expect(second.pendingWrites.isEmpty)

        let sent = frames.withLock { $0 }
        #expect(sent.contains { $0.contains(#""d":\#(spaced)"#) }, "the edited text went out as it reads")
        for frame in sent {
            #expect(throws: Never.self, "every frame is JSON: \(frame)") { try JSONParser.parse(frame) }
        }
        #expect(!sent.contains { $0.contains("/edited/corrupt") || $0.contains("/edited/merge") })
        let spacedNow = try await http("GET", "/edited/spaced.json", port: server.port)
        #expect(spacedNow.json == ["m": [2, "é"], "n": 1], "\(spacedNow.body)")
        #expect(try await http("GET", "/edited/plain.json", port: server.port).json == ["n": 2])
        #expect(try await http("GET", "/edited/corrupt.json", port: server.port).json == "kept")
        #expect(try await http("GET", "/edited/merge.json", port: server.port).json == .null)
        #expect(
            await local.wait { $0.last?["corrupt"] == "kept" && $0.last?["merge"] == nil },
            "the dropped writes' local effects are undone")
        second.close()
        await server.stop()
    }
}
