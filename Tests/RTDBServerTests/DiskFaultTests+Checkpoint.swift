import Foundation
import Logging
import RTDBCore
import RTDBRules
import RTDBServer
import RTDBTestSupport
import RTDBWire
import Testing

extension DiskFaultTests {
    /// An engine on `demo.sqlite` in the faulty folder, compacting its log after every
    /// `checkpointInterval` writes.
    static func engine(on disk: FaultyDisk, checkpointInterval: Int) async throws -> DatabaseEngine {
        var logger = Logger(label: "test.checkpoint")
        logger.logLevel = .critical
        return try await DatabaseEngine.open(
            namespace: "demo", store: SQLiteStore(path: disk.folder.appendingPathComponent("demo.sqlite").path),
            connections: ConnectionTable(), logger: logger, checkpointInterval: checkpointInterval)
    }

    @Test func aCheckpointTheDiskRefusedLeavesNoStoredWriteOutOfTheNext() async throws {
        // `a` is stored in the log. The next batch is due to fold the log into the snapshot and
        // meets a full disk; once there is room, the following checkpoint must still carry `a`,
        // as the log it truncates is the only place `a` was.
        let disk = try FaultyDisk(files: "demo.")
        let engine = try await Self.engine(on: disk, checkpointInterval: 2)
        let a = await engine.setStored(Path("a"), data: 1, auth: .admin)
        #expect((try? a.get().isStored) == true)

        disk.fill(after: 0)
        let b = await engine.setStored(Path("b"), data: 2, auth: .admin)
        #expect((try? b.get().isStored) == false, "the checkpoint's batch met the full disk")

        disk.fill(after: nil)
        let c = await engine.setStored(Path("c"), data: 3, auth: .admin)
        #expect((try? c.get().isStored) == true)
        await engine.close()

        let reopened = try await Self.engine(on: disk, checkpointInterval: 2)
        #expect(await reopened.currentRoot.exportJSON == ["a": 1, "c": 3])
        await reopened.close()
    }
}
