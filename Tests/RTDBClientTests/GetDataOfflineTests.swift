import Foundation
import RTDBCore
import RTDBTestSupport
import RTDBWire
import Testing

@testable import RTDBClient

/// `getData` without a connection, with time moved by hand.
///
/// It waits a few seconds for one, then answers from the disk cache or fails `client_offline`, as
/// the SDKs do. (Was: it waited forever.)
@Suite struct GetDataOfflineTests {
    @Test func offlineItFailsAfterAFewSecondsOrAnswersFromTheDiskCache() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let time = TestTime()
        let server = try await TestServer.start(time: time.source)
        func client() -> Database {
            let database = Database(
                url: "http://127.0.0.1:\(server.port)?ns=demo", time: time.source)
            database.persistenceDirectory = directory
            database.isPersistenceEnabled = true
            return database
        }
        // Online, a read once is answered by the server; a listener's data is kept on disk.
        let first = client()
        try await first.reference(withPath: "notes/a").setValue("kept")
        #expect(try await first.reference(withPath: "notes").getData().value as? [String: String] == ["a": "kept"])
        let seen = Recorder<String>()
        first.reference(withPath: "notes").observe(.value) { seen.record("\($0.value ?? "nil")") }
        #expect(await seen.wait { $0.contains { $0.contains("kept") } })
        first.close()

        let second = client()
        second.goOffline()
        let answers = Recorder<String>()
        for path in ["notes", "never/read"] {
            second.reference(withPath: path).getData { error, snapshot in
                if let error = error as? DatabaseError {
                    answers.record("\(path): \(error.code.rawValue)")
                } else {
                    answers.record("\(path): \(snapshot?.value.map { "\($0)" } ?? "nil")")
                }
            }
        }
        await second.barrier()
        #expect(answers.all.isEmpty, "it waits for a connection first")
        await time.advance(by: .milliseconds(3_100))
        #expect(await answers.wait { $0.count == 2 })
        #expect(answers.all.contains("never/read: client_offline"), "\(answers.all)")
        #expect(answers.all.contains { $0.hasPrefix("notes: ") && $0.contains("kept") }, "\(answers.all)")
        second.close()
        await server.stop()
    }
}
