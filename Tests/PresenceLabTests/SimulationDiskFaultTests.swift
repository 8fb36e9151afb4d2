import Foundation
import PresenceLab
import RTDBTestSupport
import Synchronization
import Testing

/// This device's store on a disk that fills: the dashboard's values say so (the snapshot, the
/// Cache view's summary, a notice), writes are refused with the reason, and it recovers.
@Suite struct SimulationDiskFaultTests {
    @Test func aFullDiskOnThisDeviceIsShownAndItsWritesAreRefusedWithTheReason() async throws {
        let disk = try FaultyDisk()
        let notices = Mutex<[String]>([])
        let simulation = try await Simulation.start(SimulationTests.options(disk.folder)) { event in
            if case .notice(let text) = event.kind { notices.withLock { $0.append(text) } }
        }
        #expect(
            try await until(simulation.changes) { simulation.snapshot().thisDevice?.status.phase.isConnected == true })
        #expect(simulation.snapshot().thisDevice?.storeFailing == nil)

        disk.fill(after: 0)
        simulation.queueWrites(3)
        #expect(
            try await until(simulation.changes) {
                notices.withLock { $0 }.contains { $0.contains("store cannot save writes") }
            },
            "\(notices.withLock { $0 })")
        let failing = try #require(simulation.snapshot().thisDevice?.storeFailing)
        #expect(failing.contains("full"), "\(failing)")
        #expect(simulation.cacheSummary()?.storeFailing?.reason == failing)
        #expect(simulation.snapshot().thisDevice?.pendingWrites.filter { $0.path.hasPrefix("/notes/") }.isEmpty == true)

        disk.fill(after: nil)
        simulation.queueWrites(1)
        #expect(
            try await until(simulation.changes) { simulation.snapshot().thisDevice?.storeFailing == nil },
            "room again: it works")
        await simulation.stop()
    }
}
