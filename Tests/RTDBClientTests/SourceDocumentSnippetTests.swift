import Foundation
import RTDBCore
import RTDBTestSupport
import Testing

@testable import RTDBClient

/// Runs the source document's snippets against a real server through `Database.database()`.
@Suite struct SourceDocumentSnippetTests {
    @Test func snippetsRunAgainstTheServer() async throws {
        let server = try await TestServer.start()
        Database.configure(url: "http://127.0.0.1:\(server.port)?ns=snippets")
        let watcher = Database(url: "http://127.0.0.1:\(server.port)?ns=snippets")
        try await watcher.reference(withPath: "scores").setValue([
            "bruhathkayosaurus": 55, "lambeosaurus": 21, "linhenykus": 80, "pterodactyl": 93, "stegosaurus": 5,
            "triceratops": 22,
        ])
        SourceDocumentSnippets.diskPersistence()
        SourceDocumentSnippets.keepingDataFresh()
        SourceDocumentSnippets.queryingDataOffline()
        SourceDocumentSnippets.queryingLastTwo()
        SourceDocumentSnippets.managingPresence()
        SourceDocumentSnippets.detectingConnectionState()
        SourceDocumentSnippets.serverTimestamps()
        SourceDocumentSnippets.clockSkew()
        SourceDocumentSnippets.samplePresenceApp()
        let connections = Recorder<UInt>()
        watcher.reference(withPath: "users/morgan/connections").observe(.value) { connections.record($0.childrenCount) }
        #expect(await connections.wait { $0.last == 1 })
        #expect(Database.database().isPersistenceEnabled)
        Database.database().goOffline()
        let message = Recorder<String>()
        watcher.reference(withPath: "disconnectmessage").observe(.value) { snapshot in
            if let text = snapshot.value as? String { message.record(text) }
        }
        #expect(await connections.wait { $0.last == 0 })
        // "I disconnected!" was replaced by a removal, then "I disconnected" was cancelled.
        let value = try await watcher.reference(withPath: "disconnectmessage").getData()
        #expect(!value.exists())
        #expect(try await watcher.reference(withPath: "users/morgan/lastOnline").getData().value is NSNumber)
        Database.database().close()
        watcher.close()
        await server.stop()
    }
}
