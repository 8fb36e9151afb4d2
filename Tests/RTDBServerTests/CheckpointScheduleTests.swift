import RTDBCore
import Testing

@testable import RTDBServer

/// When the log is folded into the snapshot, and which keys that rewrites: values only.
@Suite struct CheckpointScheduleTests {
    static let root = Node(trustedJSON: ["a": 1, "b": 2, "c": 3])

    static func keys(_ names: String...) -> Set<CodeUnitString> { Set(names.map { CodeUnitString($0) }) }

    @Test func aCheckpointComesEveryIntervalWithTheKeysWrittenSince() {
        var schedule = CheckpointSchedule(interval: 3)
        #expect(schedule.wrote(["a/x", "a/y"], applied: 2) == nil)
        let due = schedule.wrote(["b"], applied: 3)
        #expect(due?.sequence == 3 && due?.dirtyKeys == Self.keys("a", "b"))
        #expect(schedule.wrote(["c"], applied: 4) == nil, "counted again from the checkpoint")
    }

    @Test func aWriteAtTheRootRewritesTheWholeSnapshot() {
        var schedule = CheckpointSchedule(interval: 1)
        schedule.markDirty(Path("a"))
        schedule.markDirty(.root)
        schedule.markDirty(Path("b"))
        let due = schedule.take(3, root: Self.root, applied: 3)
        #expect(due != nil && due?.dirtyKeys == nil)
    }

    @Test func aRequestedCheckpointComesWithTheNextBatchWhateverItsSize() {
        var schedule = CheckpointSchedule(interval: 100)
        schedule.request()
        #expect(schedule.isRequested)
        #expect(schedule.take(0, root: Self.root, applied: 0) != nil)
        #expect(!schedule.isRequested)
    }

    @Test func aRefusedCheckpointGivesItsKeysToTheNext() {
        // `a` was stored in the log; the checkpoint that was to fold it into the snapshot was
        // refused. The next one truncates the log `a` is in, so it must rewrite `a` too.
        var schedule = CheckpointSchedule(interval: 2)
        #expect(schedule.wrote(["a"], applied: 1) == nil)
        let refused = schedule.wrote(["b"], applied: 2)
        #expect(refused?.dirtyKeys == Self.keys("a", "b"))
        schedule.refused(1, checkpoint: refused)
        #expect(schedule.isRequested, "asked for again")
        let next = schedule.wrote(["c"], applied: 2)
        #expect(next?.dirtyKeys == Self.keys("a", "b", "c"))
    }

    @Test func aRefusedBatchWithoutACheckpointIsNotCounted() {
        var schedule = CheckpointSchedule(interval: 3)
        #expect(schedule.take(2, root: Self.root, applied: 2) == nil)
        schedule.refused(2, checkpoint: nil)
        #expect(!schedule.isRequested)
        #expect(schedule.take(2, root: Self.root, applied: 2) == nil, "two logged, not four")
        #expect(schedule.take(1, root: Self.root, applied: 3) != nil)
    }

    @Test func aRefusedWholeSnapshotStaysWhole() {
        var schedule = CheckpointSchedule(interval: 1)
        schedule.markDirty(.root)
        let refused = schedule.take(1, root: Self.root, applied: 1)
        schedule.refused(1, checkpoint: refused)
        schedule.markDirty(Path("a"))
        let next = schedule.take(0, root: Self.root, applied: 0)
        #expect(next != nil && next?.dirtyKeys == nil)
    }
}

extension CheckpointSchedule {
    /// A batch of one write at each of `paths` is taken: the checkpoint that goes with it.
    fileprivate mutating func wrote(_ paths: [String], applied: UInt64) -> Checkpoint? {
        for path in paths { markDirty(Path(path)) }
        return take(paths.count, root: CheckpointScheduleTests.root, applied: applied)
    }
}
