import Foundation
import RTDBCore
import RTDBTestSupport
import Testing

@testable import RTDBClient

/// Dozens of client instances in one process, as the dashboard runs them: each connects, sees
/// the others, and gives everything back when closed.
@Suite struct ManyInstancesTests {
    static let count = 40

    @Test func fortyInstancesWithPersistenceSeeEachOtherAndAreFreedWhenClosed() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try await TestServer.start()
        var released: [() -> Bool] = []
        do {
            var databases: [Database] = []
            var seen: [Recorder<Int>] = []
            for index in 0..<Self.count {
                // One file each: a namespace per instance would also work; here a directory each.
                let database = PersistenceIntegrationTests.client(
                    port: server.port, directory: directory.appendingPathComponent("client\(index)"))
                let recorder = Recorder<Int>()
                database.reference(withPath: "presence").observe(.value) { recorder.record(Int($0.childrenCount)) }
                database.reference(withPath: "presence/user\(index)").setValue(true, andPriority: nil)
                databases.append(database)
                seen.append(recorder)
            }
            #expect(
                try await until(databases.map(\.changes)) { seen.allSatisfy { $0.last == Self.count } },
                "each sees all the others")
            #expect(ReleaseTests.openFiles(under: directory) >= Self.count, "each has its file open")
            for database in databases {
                weak let repo = database.repo
                weak let instance = database
                released.append { repo == nil && instance == nil }
                database.close()
            }
        }
        await server.stop()
        #expect(try await eventually { released.allSatisfy { $0() } }, "every closed instance is freed")
        #expect(ReleaseTests.openFiles(under: directory) == 0, "and every file closed")
    }
}
