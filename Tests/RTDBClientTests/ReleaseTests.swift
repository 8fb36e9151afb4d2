import Foundation
import RTDBCore
import RTDBTestSupport
import Testing

@testable import RTDBClient

/// A closed database gives back its engine: dozens of instances come and go in one process.
@Suite struct ReleaseTests {
    @Test func aClosedDatabaseReleasesItsEngine() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try await TestServer.start()
        weak var released: Repo?
        weak var releasedDatabase: Database?
        do {
            let database = PersistenceIntegrationTests.client(port: server.port, directory: directory)
            let values = Recorder<Int>()
            database.reference(withPath: "a").observe(.value) { _ in values.record(1) }
            database.reference(withPath: "a/b").setValue(1, andPriority: nil)
            // A barrier: it returns with the event; the bound only names a hang (the suite's
            // start on two cores has kept a first event back for over 20 s).
            #expect(await values.wait(timeout: .seconds(120)) { $0.last != nil })
            released = database.repo
            releasedDatabase = database
            database.close()
            #expect(Self.openFiles(under: directory) == 0, "the file is closed at close(), while the object lives on")
        }
        await server.stop()
        #expect(try await eventually { releasedDatabase == nil })
        #expect(try await eventually { released == nil })
    }

    /// Open file descriptors of this process under `directory` (0 where /proc is missing).
    static func openFiles(under directory: URL) -> Int {
        #if os(Linux)
            let links = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
            return links.compactMap {
                try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + $0)
            }
            .filter { $0.hasPrefix(directory.path) }.count
        #else
            return 0
        #endif
    }
}
