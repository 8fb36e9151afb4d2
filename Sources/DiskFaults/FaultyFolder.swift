import CSQLiteFaults

/// A folder whose SQLite files sit on a disk that fails on demand: writes past a byte budget
/// fail as on a full disk (`SQLITE_FULL`), syncs fail (`SQLITE_IOERR_FSYNC`), wait until
/// released (a stalled disk, without a clock) or take longer (a slow disk, for benchmarks).
///
/// The faults come from a VFS (`CSQLiteFaults`) that wraps SQLite's default one for the whole
/// process once the first folder is watched; files outside watched folders pass through it
/// untouched. For tests and the chaos lab, never the product's own runs.
public final class FaultyFolder: Sendable {
    /// The path prefix watched (a folder, or a folder and the start of file names).
    public let prefix: String
    private let handle: Int32

    /// Watches the SQLite files whose paths begin with `prefix` (at most 1,024 at once).
    ///
    /// - Throws: When the VFS cannot be installed or 16 prefixes are watched already.
    public init(prefix: String) throws {
        guard sqlite_faults_install() == 0 else { throw FaultyFolderError("the fault VFS could not be installed") }
        let handle = sqlite_faults_watch(prefix)
        guard handle >= 0 else {
            throw FaultyFolderError("more than 1,024 faulty folders at once, or a path longer than 511 bytes")
        }
        self.prefix = prefix
        self.handle = handle
    }

    deinit { sqlite_faults_unwatch(handle) }

    /// Writes fail once `bytes` more bytes are written; nil: the disk has room again.
    public func fill(after bytes: Int64?) { sqlite_faults_set_write_budget(handle, bytes ?? -1) }

    /// Syncs fail (true) or work (false).
    public func failSyncs(_ failing: Bool) { sqlite_faults_set_failing_syncs(handle, failing ? 1 : 0) }

    /// Syncs wait (true) until released (false).
    public func holdSyncs(_ holding: Bool) { sqlite_faults_set_holding_syncs(handle, holding ? 1 : 0) }

    /// Each sync takes `delay` more (a slow disk, in wall time); nil or zero: no delay.
    public func delaySyncs(by delay: Duration?) {
        let microseconds = (delay ?? .zero) / .microseconds(1)
        sqlite_faults_set_sync_delay(handle, Int64(max(0, min(microseconds, 3_600_000_000))))
    }

    /// How many syncs wait now.
    public var heldSyncs: Int { Int(sqlite_faults_held_syncs(handle)) }

    /// How many writes and syncs have failed.
    public var failures: Int64 { sqlite_faults_failures(handle) }
}

/// Why a folder cannot be made faulty.
public struct FaultyFolderError: Error, CustomStringConvertible {
    /// What went wrong.
    public var description: String

    init(_ description: String) { self.description = description }
}
