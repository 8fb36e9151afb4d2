import Foundation
import RTDBTestSupport
import Testing

@testable import RTDBClient

/// A file another connection holds locked for a moment (an instance just closed checkpoints its
/// log, another process writes) is waited for: the instance keeps its persistence.
@Suite struct FileLockTests {
    static var runnable: Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3")
            || ProcessInfo.processInfo.environment["CI"] == "true"
    }

    @Test(.enabled(if: runnable, "needs /usr/bin/sqlite3 (installed by .ci/run; required when CI=true)"))
    func aBrieflyLockedFileIsWaitedFor() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = PersistenceIntegrationTests.client(port: 1, directory: directory)
        first.goOffline()
        first.reference(withPath: "queued").setValue("on disk", andPriority: nil)
        let queued = first.pendingWrites.map(\.id)
        first.close()
        let file = try #require(
            try FileManager.default.contentsOfDirectory(atPath: directory.path).first { $0.hasSuffix(".sqlite") })

        // sqlite3 takes the file for itself for a second, and says so with a marker file.
        let marker = directory.appendingPathComponent("locked").path
        let locker = try await ChildProcess(
            URL(fileURLWithPath: "/usr/bin/sqlite3"),
            [
                directory.appendingPathComponent(file).path, "PRAGMA locking_mode = EXCLUSIVE;", "BEGIN EXCLUSIVE;",
                "SELECT count(*) FROM writes;", ".shell touch \(marker)", ".shell sleep 1", "COMMIT;",
            ])
        #expect(
            try await eventually { FileManager.default.fileExists(atPath: marker) },
            "the lock is held: \(locker.standardError)")
        let second = PersistenceIntegrationTests.client(port: 1, directory: directory)
        second.goOffline()
        #expect(second.pendingWrites.map(\.id) == queued, "the queue is back: the open waited for the lock")
        #expect(second.cacheReport() != nil)
        second.close()
        #expect(try await locker.waitForExit() == 0)
    }
}
