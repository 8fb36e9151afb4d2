import RTDBCore
import Testing

@testable import RTDBServer

/// When the log is folded into the snapshot, and which keys that rewrites: values only.
@Suite struct CheckpointScheduleTests {
    static let root = Node(trustedJSON: ["a": 1, "b": 2, "c": 3])

    @Test func aCheckpointComesEveryIntervalWithTheKeysWrittenSince() {
        var schedule = CheckpointSchedule(interval: 3)
        schedule.markDirty(Path("a/x"))
        #expect(schedule.take(2, root: Self.root, applied: 2) == nil)
        schedule.markDirty(Path("b"))
        let due = schedule.take(1, root: Self.root, applied: 3)
        #expect(due?.sequence == 3 && due?.dirtyKeys == [CodeUnitString("a"), CodeUnitString("b")])
        schedule.markDirty(Path("c"))
        #expect(schedule.take(1, root: Self.root, applied: 4) == nil, "counted again from the checkpoint")
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
        schedule.markDirty(Path("a"))
        #expect(schedule.take(1, root: Self.root, applied: 1) == nil)
        schedule.markDirty(Path("b"))
        let refused = schedule.take(1, root: Self.root, applied: 2)
        #expect(refused?.dirtyKeys == [CodeUnitString("a"), CodeUnitString("b")])
        schedule.refused(1, checkpoint: refused)
        #expect(schedule.isRequested, "asked for again")
        schedule.markDirty(Path("c"))
        let next = schedule.take(1, root: Self.root, applied: 2)
        #expect(next?.dirtyKeys == [CodeUnitString("a"), CodeUnitString("b"), CodeUnitString("c")])
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
