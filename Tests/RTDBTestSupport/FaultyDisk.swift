import Foundation
import SQLiteFaults

/// A folder whose SQLite files sit on a disk that fails on demand: writes past a byte budget
/// fail as on a full disk (`SQLITE_FULL`), syncs fail (`SQLITE_IOERR_FSYNC`) or wait until
/// released (a slow disk, without a clock).
///
/// The faults come from a VFS that wraps SQLite's default one for the whole test process
/// (`Tests/SQLiteFaults`); files outside the folder pass through it untouched.
public final class FaultyDisk: Sendable {
    /// The folder; every SQLite file opened under it is subject to the faults.
    public let folder: URL
    private let handle: Int32

    /// Makes an empty folder under the temporary directory and watches the files in it whose
    /// names begin with `files` (all of them by default: a namespace `demo` is `demo.sqlite`,
    /// with its `-wal` and `-shm` beside it).
    public init(files: String = "") throws {
        guard sqlite_faults_install() == 0 else { throw FaultyDiskError("the fault VFS could not be installed") }
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("faulty-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        handle = sqlite_faults_watch(folder.path + "/" + files)
        guard handle >= 0 else { throw FaultyDiskError("more than 16 faulty folders at once") }
    }

    deinit {
        sqlite_faults_unwatch(handle)
        try? FileManager.default.removeItem(at: folder)
    }

    /// Writes fail once `bytes` more bytes are written; nil: the disk has room again.
    public func fill(after bytes: Int64?) { sqlite_faults_set_write_budget(handle, bytes ?? -1) }

    /// Syncs fail (true) or work (false).
    public func failSyncs(_ failing: Bool) { sqlite_faults_set_failing_syncs(handle, failing ? 1 : 0) }

    /// Syncs wait (true) until released (false).
    public func holdSyncs(_ holding: Bool) { sqlite_faults_set_holding_syncs(handle, holding ? 1 : 0) }

    /// How many syncs wait now.
    public var heldSyncs: Int { Int(sqlite_faults_held_syncs(handle)) }

    /// How many writes and syncs have failed.
    public var failures: Int64 { sqlite_faults_failures(handle) }
}

/// Why a faulty disk could not be made.
public struct FaultyDiskError: Error, CustomStringConvertible {
    /// What went wrong.
    public var description: String

    init(_ description: String) { self.description = description }
}
