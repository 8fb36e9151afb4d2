import RTDBCore

/// When a namespace folds its log into the snapshot, and which of the snapshot's top-level keys
/// that checkpoint must write (docs/reliability.md).
///
/// A checkpoint rewrites only the keys written since the last one and then truncates the log, so
/// a key it leaves out must already be right in the snapshot: a checkpoint the disk refused gives
/// its keys back for the next one, because the writes that dirtied them may be stored only in
/// the log that one truncates.
struct CheckpointSchedule {
    /// After this many logged writes a checkpoint is due.
    let interval: Int
    /// The top-level keys written since the last stored checkpoint (nil: the root itself).
    private var dirtyKeys: Set<CodeUnitString>? = []
    /// Logged writes since the last checkpoint.
    private var records = 0
    /// Whether the next batch carries one whatever the count (closing, or one was refused).
    private(set) var isRequested = false

    /// A schedule with a checkpoint every `interval` logged writes.
    init(interval: Int) { self.interval = interval }

    /// Notes which top-level key a write touched.
    mutating func markDirty(_ path: Path) {
        guard let front = path.front else {
            dirtyKeys = nil
            return
        }
        dirtyKeys?.insert(CodeUnitString(front))
    }

    /// Asks for a checkpoint with the next batch.
    mutating func request() { isRequested = true }

    /// A batch of `count` writes is taken: the checkpoint of `root` at `applied` that goes with
    /// it, when one is due.
    mutating func take(_ count: Int, root: Node, applied: UInt64) -> Checkpoint? {
        records += count
        guard isRequested || records >= interval else { return nil }
        defer {
            dirtyKeys = []
            records = 0
            isRequested = false
        }
        return Checkpoint(root: root, sequence: applied, dirtyKeys: dirtyKeys)
    }

    /// The disk refused a batch of `count` writes: they are not logged, and its checkpoint (if it
    /// had one) is asked for again with every key it was to write.
    mutating func refused(_ count: Int, checkpoint: Checkpoint?) {
        records -= count
        guard let checkpoint else { return }
        isRequested = true
        if let keys = checkpoint.dirtyKeys {
            dirtyKeys?.formUnion(keys)
        } else {
            dirtyKeys = nil
        }
    }

    /// Gives up on the disk (the namespace closes): nothing more is asked of it.
    mutating func abandon() { isRequested = false }
}
