import DiskFaults
import Dispatch
import Foundation
import Logging

extension ServeCommand {
    /// The chaos lab's switch for this server's disk; returns what must live as long as the server.
    ///
    /// With `--lab-disk-faults` (hidden), SIGUSR1 makes the data folder full (every SQLite write
    /// fails with `SQLITE_FULL`) and SIGUSR2 gives it room again. What is returned is the watched
    /// folder and the signal sources.
    static func labDiskFaults(folder: URL, logger: Logger) throws -> [any Sendable] {
        let faults = try FaultyFolder(prefix: folder.path + "/")
        var sources: [any DispatchSourceSignal] = []
        for (number, full) in [(SIGUSR1, true), (SIGUSR2, false)] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                faults.fill(after: full ? 0 : nil)
                logger.warning("lab: the data folder's disk is \(full ? "full" : "given room again") (on request)")
            }
            source.resume()
            sources.append(source)
        }
        return [faults, LabSignalSources(sources)]
    }
}

/// The signal sources of ``ServeCommand/labDiskFaults(folder:logger:)``, kept alive.
///
/// `@unchecked Sendable`: the sources are only held, never touched after they are resumed.
private final class LabSignalSources: @unchecked Sendable {
    let sources: [any DispatchSourceSignal]
    init(_ sources: [any DispatchSourceSignal]) { self.sources = sources }
}
