import RTDBCore
import Testing

@testable import RTDBServer

/// The durability pipeline's rules, as values: no store, no actor, no time.
@Suite struct DurabilityPipelineTests {
    static func record(_ sequence: UInt64, _ path: String = "a") -> LogRecord {
        LogRecord(sequence: sequence, path: Path(path), kind: .set, data: "\(sequence)")
    }

    @Test func aMessageWaitsForTheWriteItReflectsAndLeavesInOrder() {
        var pipeline = DurabilityPipeline(durableSequence: 0, checkpointInterval: 100)
        let outlet = Outlet()
        #expect(pipeline.hold(.wire("before"), for: outlet, applied: 0) == .wire("before"), "nothing to wait for")
        pipeline.append(Self.record(1))
        #expect(pipeline.hold(.wire("after 1"), for: outlet, applied: 1) == nil)
        pipeline.append(Self.record(2))
        #expect(pipeline.hold(.wire("after 2"), for: outlet, applied: 2) == nil)
        let first = pipeline.takeBatch(root: .empty, applied: 2)
        #expect(first.records.map(\.sequence) == [1, 2])
        #expect(pipeline.committed(first).map(\.item) == [.wire("after 1"), .wire("after 2")])
        #expect(pipeline.isSettled(applied: 2))
    }

    @Test func aFailedBatchGoesBackInFrontAndItsMessagesStayHeld() {
        var pipeline = DurabilityPipeline(durableSequence: 0, checkpointInterval: 100)
        let outlet = Outlet()
        pipeline.append(Self.record(1))
        _ = pipeline.hold(.wire("ack 1"), for: outlet, applied: 1)
        let failed = pipeline.takeBatch(root: .empty, applied: 1)
        pipeline.append(Self.record(2))
        pipeline.failed(failed)
        #expect(pipeline.durableSequence == 0)
        #expect(!pipeline.isSettled(applied: 2))
        let retry = pipeline.takeBatch(root: .empty, applied: 2)
        #expect(retry.records.map(\.sequence) == [1, 2], "the failed write first, in the namespace's order")
        #expect(pipeline.committed(retry).map(\.item) == [.wire("ack 1")])
    }

    @Test func aCheckpointComesEveryIntervalAndAgainAfterItFailed() {
        var pipeline = DurabilityPipeline(durableSequence: 0, checkpointInterval: 2)
        pipeline.append(Self.record(1, "users/a"))
        #expect(pipeline.takeBatch(root: .empty, applied: 1).checkpoint == nil)
        pipeline.markDirty(Path("users/a"))
        pipeline.append(Self.record(2, "notes/b"))
        pipeline.markDirty(Path("notes/b"))
        let due = pipeline.takeBatch(root: .empty, applied: 2)
        #expect(due.checkpoint?.sequence == 2)
        #expect(due.checkpoint?.dirtyKeys == ["users", "notes"], "the top-level keys written since the last one")
        pipeline.failed(due)
        #expect(pipeline.hasWork)
        let again = pipeline.takeBatch(root: .empty, applied: 2)
        #expect(again.checkpoint != nil && again.records.count == 1, "the checkpoint is asked again with its record")
    }

    @Test func aNewerOnDisconnectChangeReplacesTheOneThatFailed() {
        var pipeline = DurabilityPipeline(durableSequence: 0, checkpointInterval: 100)
        pipeline.append(OnDisconnectRecord(sessionID: "s1", auth: nil, writes: [(Path("a"), Node(trustedJSON: 1))]))
        let failed = pipeline.takeBatch(root: .empty, applied: 0)
        pipeline.append(OnDisconnectRecord(sessionID: "s1", auth: nil, writes: []))
        pipeline.failed(failed)
        let retry = pipeline.takeBatch(root: .empty, applied: 0)
        #expect(retry.onDisconnect.count == 1)
        #expect(retry.onDisconnect.first?.writes.isEmpty == true, "the newer change, not the failed one")
        #expect(retry.ticket == 2)
        _ = pipeline.committed(retry)
        #expect(pipeline.isSettled(applied: 0))
    }
}
