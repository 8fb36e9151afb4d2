import DiskFaults
import Foundation

/// A new folder under the temporary directory whose SQLite files sit on a disk that fails on
/// demand (``FaultyFolder``); removed with the value.
public final class FaultyDisk: Sendable {
    /// The folder; every SQLite file opened under it is subject to the faults.
    public let folder: URL
    private let faults: FaultyFolder

    /// Makes the folder and watches the files in it whose names begin with `files` (all of them
    /// by default: a namespace `demo` is `demo.sqlite`, with its `-wal` and `-shm` beside it).
    public init(files: String = "") throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("faulty-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        faults = try FaultyFolder(prefix: folder.path + "/" + files)
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    /// Writes fail once `bytes` more bytes are written; nil: the disk has room again.
    public func fill(after bytes: Int64?) { faults.fill(after: bytes) }

    /// Syncs fail (true) or work (false).
    public func failSyncs(_ failing: Bool) { faults.failSyncs(failing) }

    /// Syncs wait (true) until released (false).
    public func holdSyncs(_ holding: Bool) { faults.holdSyncs(holding) }

    /// How many syncs wait now.
    public var heldSyncs: Int { faults.heldSyncs }

    /// How many writes and syncs have failed.
    public var failures: Int64 { faults.failures }
}
