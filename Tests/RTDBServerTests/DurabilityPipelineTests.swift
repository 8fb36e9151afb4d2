import RTDBCore
import Testing

@testable import RTDBServer

/// The durability pipeline's rules, as values: no store, no actor, no time.
@Suite struct DurabilityPipelineTests {
    static func write(_ sequence: UInt64, _ path: String = "a", byServer: Bool = false) -> DurabilityPipeline.Applied {
        let node = Node(trustedJSON: .int(Int64(sequence)))
        return DurabilityPipeline.Applied(
            record: LogRecord(sequence: sequence, path: Path(path), kind: .set, data: "\(sequence)"),
            change: .set(path: Path(path), node: node), byServer: byServer)
    }

    static func onDisconnect(_ session: String, _ value: Int64?) -> OnDisconnectRecord {
        OnDisconnectRecord(
            sessionID: session, auth: nil, writes: value.map { [(Path("a"), Node(trustedJSON: .int($0)))] } ?? [])
    }

    @Test func aWriteIsAcknowledgedOnlyOnceStoredInOrder() {
        var pipeline = DurabilityPipeline(durableSequence: 0, checkpointInterval: 100)
        let outlet = Outlet()
        pipeline.append(Self.write(1))
        let first1 = pipeline.acknowledge(1, outlet: outlet, number: 7)
        #expect(!first1, "not stored yet")
        pipeline.append(Self.write(2))
        let second = pipeline.acknowledge(2, outlet: outlet, number: 8)
        #expect(!second)
        let first = pipeline.takeBatch(root: .empty, applied: 2)
        #expect(first.records.map(\.sequence) == [1, 2])
        let earlier = pipeline.acknowledge(0, outlet: outlet, number: 9)
        #expect(earlier, "a write stored before waits for nothing")
        _ = pipeline.committed(first)
        let one = pipeline.acknowledgements(of: 1).map(\.number)
        let two = pipeline.acknowledgements(of: 2).map(\.number)
        #expect(one == [7] && two == [8])
        #expect(pipeline.isSettled(applied: 2))
    }

    @Test func aRefusedBatchRefusesWhatCameAfterItAndKeepsTheServersOwnWrites() {
        var pipeline = DurabilityPipeline(durableSequence: 4, checkpointInterval: 100)
        let outlet = Outlet()
        pipeline.append(Self.write(5))
        _ = pipeline.acknowledge(5, outlet: outlet, number: 1)
        let failed = pipeline.takeBatch(root: .empty, applied: 5)
        pipeline.append(Self.write(6, "presence/a", byServer: true))
        pipeline.append(Self.write(7))
        _ = pipeline.acknowledge(7, outlet: outlet, number: 2)
        let refusal = pipeline.refuse(failed)
        #expect(pipeline.durableSequence == 4, "nothing after what is stored counts as stored")
        #expect(refusal.refused == 2)
        #expect(refusal.acknowledgements.map(\.number).sorted() == [1, 2], "both writers are told")
        #expect(refusal.kept.map(\.record.sequence) == [6], "the server's own write is kept to be tried again")
        #expect(!pipeline.hasWork, "the engine applies the kept write again, with a new number")
        #expect(pipeline.isSettled(applied: 4))
    }

    @Test func aCheckpointComesEveryIntervalAndAgainAfterItFailed() {
        var pipeline = DurabilityPipeline(durableSequence: 0, checkpointInterval: 2)
        pipeline.append(Self.write(1, "users/a"))
        #expect(pipeline.takeBatch(root: .empty, applied: 1).checkpoint == nil)
        pipeline.markDirty(Path("users/a"))
        pipeline.append(Self.write(2, "notes/b"))
        pipeline.markDirty(Path("notes/b"))
        let due = pipeline.takeBatch(root: .empty, applied: 2)
        #expect(due.checkpoint?.sequence == 2)
        #expect(due.checkpoint?.dirtyKeys == ["users", "notes"], "the top-level keys written since the last one")
        _ = pipeline.refuse(due)
        #expect(pipeline.hasWork)
        let again = pipeline.takeBatch(root: .empty, applied: 1)
        #expect(
            again.checkpoint != nil && again.records.isEmpty, "the checkpoint is asked again; the write was refused")
    }

    @Test func aLiveSessionsRefusedChangeGoesBackToWhatIsStoredAndAnEndedOnesIsKept() {
        var pipeline = DurabilityPipeline(durableSequence: 0, checkpointInterval: 100)
        pipeline.append(Self.onDisconnect("live", 1), by: 10)
        _ = pipeline.committed(pipeline.takeBatch(root: .empty, applied: 0))
        pipeline.append(Self.onDisconnect("live", 2), by: 10)
        pipeline.append(Self.onDisconnect("ended", nil), by: nil)
        let failed = pipeline.takeBatch(root: .empty, applied: 0)
        let refusal = pipeline.refuse(failed)
        #expect(refusal.onDisconnectRestored.count == 1)
        #expect(refusal.onDisconnectRestored.first?.outletID == 10)
        #expect(
            refusal.onDisconnectRestored.first?.record?.writes.first?.node == Node(trustedJSON: 1), "what is stored")
        let retry = pipeline.takeBatch(root: .empty, applied: 0)
        #expect(retry.onDisconnect.map(\.sessionID) == ["ended"], "the server's removal is tried again")
        _ = pipeline.committed(retry)
        #expect(pipeline.isSettled(applied: 0))
    }

    @Test func aHeldAnswerHoldsItsOwnOutletOnlyAndBecomesItsRefusal() {
        var pipeline = DurabilityPipeline(durableSequence: 0, checkpointInterval: 100)
        let a = Outlet()
        let b = Outlet()
        pipeline.append(Self.onDisconnect("a", 1), by: a.id)
        let ticket = pipeline.onDisconnectTicket
        let held = pipeline.hold(.wire("o ok"), for: a, ticket: ticket, refusal: .wire("o refused"))
        let next = pipeline.hold(.wire("a's next"), for: a)
        let other = pipeline.hold(.wire("b's"), for: b)
        #expect(held == nil)
        #expect(next == nil, "after the held answer, on its outlet")
        #expect(other == .wire("b's"), "another outlet does not wait")
        let refusal = pipeline.refuse(pipeline.takeBatch(root: .empty, applied: 0))
        #expect(refusal.released.map(\.item) == [.wire("o refused"), .wire("a's next")])
        let later = pipeline.hold(.wire("later"), for: a)
        #expect(later == .wire("later"))
    }

    @Test func aWaiterForARefusedWriteHearsFalse() async {
        var pipeline = DurabilityPipeline(durableSequence: 0, checkpointInterval: 100)
        pipeline.append(Self.write(1))
        let batch = pipeline.takeBatch(root: .empty, applied: 1)
        let stored: Bool = await withCheckedContinuation { continuation in
            pipeline.wait(for: 1, continuation)
            _ = pipeline.refuse(batch)
        }
        #expect(!stored)
    }

    @Test func aReadWaitsForTheNewestUnpublishedWriteAtAboveOrBelowIt() {
        var pipeline = DurabilityPipeline(durableSequence: 0, checkpointInterval: 100)
        pipeline.append(Self.write(1, "rooms/blue/topic"))
        pipeline.append(Self.write(2, "users/e\u{301}"))
        pipeline.append(Self.write(3, "rooms/red"))
        #expect(pipeline.newestUnpublished(touching: Path("rooms/blue/topic/words")) == 1, "above it")
        #expect(pipeline.newestUnpublished(touching: Path("rooms")) == 3, "below it: the newest there")
        #expect(pipeline.newestUnpublished(touching: Path("rooms/blue")) == 1)
        #expect(pipeline.newestUnpublished(touching: .root) == 3)
        #expect(pipeline.newestUnpublished(touching: Path("users/\u{e9}")) == nil, "another key by its code units")
        #expect(pipeline.newestUnpublished(touching: Path("users/e\u{301}")) == 2)
        #expect(pipeline.newestUnpublished(touching: Path("lobby")) == nil, "beside them")

        let batch = pipeline.takeBatch(root: .empty, applied: 3)
        pipeline.append(Self.write(4, ""))
        #expect(pipeline.newestUnpublished(touching: Path("lobby")) == 4, "a write at the root touches everything")
        _ = pipeline.committed(batch)
        #expect(pipeline.newestUnpublished(touching: Path("rooms/blue")) == 4, "only the root's write is left")
        let next = pipeline.takeBatch(root: .empty, applied: 4)
        _ = pipeline.committed(next)
        #expect(pipeline.newestUnpublished(touching: .root) == nil, "everything is published")
    }

    @Test func aMergeTouchesItsChildrenOnlyAndARefusalLeavesNothingToWaitFor() {
        var pipeline = DurabilityPipeline(durableSequence: 0, checkpointInterval: 100)
        let node = Node(trustedJSON: true)
        pipeline.append(
            DurabilityPipeline.Applied(
                record: LogRecord(sequence: 1, path: Path("status"), kind: .merge, data: "{}"),
                change: .merge(path: Path("status"), children: [(Path("a"), node), (Path("b/online"), node)]),
                byServer: false))
        #expect(pipeline.newestUnpublished(touching: Path("status/b")) == 1)
        #expect(pipeline.newestUnpublished(touching: Path("status/c")) == nil, "beside the merge's children")
        let batch = pipeline.takeBatch(root: .empty, applied: 1)
        _ = pipeline.refuse(batch)
        #expect(pipeline.newestUnpublished(touching: Path("status")) == nil, "refused: answered without it")
    }

    @Test func theTreeOfPendingPathsStaysInProportionUnderALoadThatNeverDrains() {
        var pipeline = DurabilityPipeline(durableSequence: 0, checkpointInterval: 1_000_000)
        var sequence: UInt64 = 0
        for _ in 0..<50 {
            for _ in 0..<100 {
                sequence += 1
                pipeline.append(Self.write(sequence, "load/k\(sequence)"))
            }
            let batch = pipeline.takeBatch(root: .empty, applied: sequence)
            sequence += 1
            pipeline.append(Self.write(sequence, "load/k\(sequence)"))
            _ = pipeline.committed(batch)
            #expect(pipeline.newestUnpublished(touching: Path("load/k\(sequence)")) == sequence)
            #expect(pipeline.newestUnpublished(touching: Path("load/k\(sequence - 1)")) == nil)
        }
        #expect(
            pipeline.pendingPathsNoted <= 4 + 1_024, "rebuilt from the one write pending: \(pipeline.pendingPathsNoted)"
        )
    }
}
