import DiskFaults
import Foundation
import Synchronization

/// A chaos device's disk: the folder its SQLite file lives in, on a VFS that a fault fills, and
/// whether it is full now.
///
/// The device fills it and reads it under its own lock, so that a write and the fill it meets
/// are ordered.
final class ChaosDisk: Sendable {
    /// The folder; every SQLite file opened under it is subject to the fault.
    let folder: URL
    /// The faults of the folder (nil: the fault VFS could not be installed, and a fill does
    /// nothing to the files).
    private let faults: FaultyFolder?
    private let full = Atomic<Bool>(false)

    /// The disk under `folder`, with room.
    init(folder: URL) {
        self.folder = folder
        faults = try? FaultyFolder(prefix: folder.path + "/")
    }

    /// Whether it is full now: every write to it fails (`store_failed` for the app).
    var isFull: Bool { full.load(ordering: .acquiring) }

    /// Fills it (true) or gives it room again (false).
    func fill(_ isFull: Bool) {
        faults?.fill(after: isFull ? 0 : nil)
        full.store(isFull, ordering: .releasing)
    }
}
