import Foundation
import RTDBCore
import RTDBTestSupport
import Testing

@testable import RTDBClient

/// The client against a server whose disk fails (a fault-injecting SQLite VFS on the server's
/// real files): a write the server could not store is kept, with the reason, to send again.
@Suite struct ServerDiskFaultTests {
    static func code(_ error: (any Error)?) -> String {
        guard let error else { return "ok" }
        return (error as? DatabaseError)?.code.rawValue ?? "\(error)"
    }

    @Test func aWriteTheServerCouldNotStoreIsKeptAsADeadLetterAndSentAgainLater() async throws {
        let disk = try FaultyDisk(files: "demo.")
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try await TestServer.start(dataDirectory: disk.folder)
        let client = PersistenceIntegrationTests.client(port: server.port, directory: directory)
        let answers = Recorder<String>()
        client.reference(withPath: "before").setValue(1) { error, _ in answers.record(Self.code(error)) }
        #expect(await answers.wait { $0 == ["ok"] })

        disk.fill(after: 0)
        client.reference(withPath: "note").setValue("kept") { error, _ in answers.record(Self.code(error)) }
        #expect(await answers.wait { $0 == ["ok", "unavailable"] })
        let letter = try #require(client.deadLetters.first)
        #expect(letter.status == .unavailable && letter.write.path == "/note")
        #expect(letter.reason.contains("could not store"), "\(letter.reason)")

        disk.fill(after: nil)
        let retried = Recorder<String>()
        client.retryDeadLetter(withID: letter.id) { error in retried.record(error?.code.rawValue ?? "ok") }
        #expect(await retried.wait { $0 == ["ok"] }, "\(retried.all)")
        #expect(try await http("GET", "/note.json?ns=demo", port: server.port).json == "kept")
        #expect(client.deadLetters.isEmpty)
        client.close()
        await server.stop()
    }
}
