import DiskFaults
import Foundation
import Logging
import UnixSignals

extension ServeCommand {
    /// The chaos lab's switch for this server's disk; returns what must live as long as the server.
    ///
    /// With `--lab-disk-faults` (hidden), SIGUSR1 makes the data folder full (every SQLite write
    /// fails with `SQLITE_FULL`) and SIGUSR2 gives it room again. What is returned is the watched
    /// folder and the task that follows the signals.
    static func labDiskFaults(folder: URL, logger: Logger) async throws -> [any Sendable] {
        let faults = try FaultyFolder(prefix: folder.path + "/")
        let signals = await UnixSignalsSequence(trapping: .sigusr1, .sigusr2)
        let watch = Task {
            for await signal in signals {
                let full = signal == .sigusr1
                faults.fill(after: full ? 0 : nil)
                logger.warning("lab: the data folder's disk is \(full ? "full" : "given room again") (on request)")
            }
        }
        return [faults, watch]
    }
}
