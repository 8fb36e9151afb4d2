import RTDBCore
import Testing

@testable import RTDBServer

/// The pipeline and the task that commits it: work wakes it, a close asks for a last checkpoint,
/// and a run of failures is said once at each end.
extension DurabilityPipelineTests {
    /// Parks the flusher, runs `work`, and says whether that woke it (if not, it is woken here,
    /// so that a failing check does not hang the run).
    static func wakes(_ pipeline: inout DurabilityPipeline, _ work: (inout DurabilityPipeline) -> Void) async -> Bool {
        var woke = false
        await withCheckedContinuation { parked in
            pipeline.flusher.park(parked)
            work(&pipeline)
            woke = !pipeline.flusher.isParked
            pipeline.flusher.wake()
        }
        return woke
    }

    @Test func workAppendedWakesAParkedFlusher() async {
        var pipeline = DurabilityPipeline(durableSequence: 0, checkpointInterval: 100)
        #expect(await Self.wakes(&pipeline) { $0.append(Self.write(1)) })
        #expect(await Self.wakes(&pipeline) { $0.append(Self.onDisconnect("s", 1), by: nil) })
        #expect(pipeline.isWorking && pipeline.isBusy)
    }

    @Test func aCloseWakesTheFlusherForALastCheckpoint() async {
        var pipeline = DurabilityPipeline(durableSequence: 0, checkpointInterval: 100)
        #expect(!pipeline.isWorking)
        #expect(await Self.wakes(&pipeline) { $0.close() })
        #expect(pipeline.flusher.isClosed && pipeline.hasWork)
        #expect(pipeline.takeBatch(root: .empty, applied: 0).checkpoint != nil)
        #expect(!pipeline.isWorking)
    }

    @Test func aRunOfFailedCommitsIsSaidOnceAtEachEnd() {
        var flusher = FlusherState()
        let none = flusher.committed()
        #expect(none == nil, "commits worked all along: nothing to say")
        let since = UnixTime(millisecondsSince1970: 1_000)
        let said = [since, UnixTime(millisecondsSince1970: 1_500), UnixTime(millisecondsSince1970: 2_000)].map {
            flusher.failed(at: $0)
        }
        #expect(said == [true, false, false])
        let ended = flusher.committed()
        #expect(ended?.since == since && ended?.attempts == 3)
        let after = flusher.committed()
        #expect(after == nil && flusher.failure == nil)
    }

    @Test func aFailureToRetryKeepsTheFlusherBusyWithNothingPending() {
        var pipeline = DurabilityPipeline(durableSequence: 0, checkpointInterval: 100)
        _ = pipeline.flusher.failed(at: UnixTime(millisecondsSince1970: 1))
        #expect(!pipeline.isWorking && pipeline.isBusy)
    }
}
