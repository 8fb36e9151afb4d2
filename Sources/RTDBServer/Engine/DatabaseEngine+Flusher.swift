import RTDBCore
import Synchronization

extension DatabaseEngine {
    /// Commits batches as writes come, then publishes them; a batch that fails is refused
    /// (``refuse(_:)``), and the next is tried when a client writes again (so that its writer
    /// hears soon) or half a second later (what the server itself wrote).
    ///
    /// It says so once when commits start failing and once when they work again, and it gives up
    /// when the namespace closes (SIGTERM): what was never stored was never acknowledged.
    func runFlusher() async {
        while let batch = await nextBatch() {
            durability.flusher.isCommitting = true
            defer { durability.flusher.isCommitting = false }
            do {
                let storing = WriteBreakdown.begin()
                let started = ContinuousClock.now
                try await store.append(batch.records, onDisconnect: batch.onDisconnect, checkpoint: batch.checkpoint)
                WriteBreakdown.end(.commit, since: storing)
                metrics.writes.commitSeconds.record(ContinuousClock.now - started)
                metrics.writes.groupCommit.record(Double(batch.writes.count))
                metrics.writes.stored.increment(by: Int64(batch.writes.count))
                let committed = ContinuousClock.now
                for write in batch.writes where !write.byServer {
                    metrics.writes.ackSeconds.record(committed - write.appliedAt)
                }
                for held in durability.committed(batch) { held.outlet.send(held.item) }
                publish(batch.writes, upTo: batch.after)
                if let (since, attempts) = durability.flusher.committed() {
                    logger.notice(
                        "commits to namespace \(namespace) work again, after \(attempts) failed attempts over \((clock() - since).wholeMilliseconds) ms"
                    )
                }
            } catch {
                let refused = refuse(batch)
                metrics.writes.storeFailures.increment()
                metrics.writes.diskRefused.increment(by: Int64(refused))
                if durability.flusher.failed(at: clock()) {
                    logger.error(
                        "commits to namespace \(namespace) fail: \(error). Writes are refused (unavailable, REST 503) until they work again; tried at each write, and every 0.5 s"
                    )
                }
                logger.debug("namespace \(namespace): \(refused) writes refused, not stored")
                if durability.flusher.isClosed {
                    giveUp()
                    return
                }
                await pauseAfterFailure()
            }
        }
    }

    /// After a failed commit: until a client writes again or ``retryInterval`` passes.
    ///
    /// A client's write is tried at once, so that on a full disk its writer is answered in
    /// milliseconds; the interval paces the tries of what the server itself wrote (a closed
    /// session's onDisconnect writes), which are kept and tried again.
    private func pauseAfterFailure() async {
        let timers = timers
        let retry = Task { [weak self] in
            guard (try? await timers.sleep(for: Self.retryInterval)) != nil else { return }
            await self?.wakeFlusher()
        }
        defer { retry.cancel() }
        await withCheckedContinuation { durability.flusher.park($0) }
    }

    /// How long after a failed commit the server's own writes are tried again.
    static let retryInterval: Duration = .milliseconds(500)

    /// Gives up what the disk has not stored, as the server starts to stop, when it fails or hangs.
    ///
    /// A namespace whose commits fail, or whose disk does not finish what it has within
    /// ``stopBound``, gives it up now (its writers are answered that it was not stored, its
    /// messages never sent), so that a disk that may never come back does not hold the stop.
    /// Nothing given up was acknowledged.
    public func stopWaitingForTheDisk() async {
        // The bound is one sleep of its own, so that a loaded machine's late wake-ups in the loop
        // do not stretch it.
        let expired = FirstAnswer()
        let timers = timers
        let bound = Task {
            try? await timers.sleep(for: Self.stopBound)
            _ = expired.claim()
        }
        defer { bound.cancel() }
        while durability.flusher.failure == nil, durability.isWorking, !expired.isClaimed {
            try? await timers.sleep(for: .milliseconds(50))
        }
        guard durability.isBusy else { return }
        if durability.flusher.failure == nil {
            logger.error(
                "namespace \(namespace): its disk did not finish a commit within \(Self.stopBound) as the server stops")
        }
        durability.flusher.stopGaveUp = true
        giveUp()
    }

    /// Whether `task` finishes within `bound` on `timers` (it is not cancelled either way).
    static func finishes(_ task: Task<Void, Never>, within bound: Duration, on timers: any Clock<Duration>)
        async -> Bool
    {
        let first = FirstAnswer()
        return await withCheckedContinuation { continuation in
            Task {
                await task.value
                if first.claim() { continuation.resume(returning: true) }
            }
            Task {
                try? await timers.sleep(for: bound)
                if first.claim() { continuation.resume(returning: false) }
            }
        }
    }

    func giveUp() {
        let lost = durability.abandon()
        guard lost > 0 else { return }
        logger.error("namespace \(namespace) gave up \(lost) writes its disk did not take; none was acknowledged")
    }

    /// What the flusher commits next, in one transaction; nil once closed with nothing left.
    func nextBatch() async -> DurabilityPipeline.Batch? {
        while !durability.hasWork {
            if durability.flusher.isClosed { return nil }
            await withCheckedContinuation { durability.flusher.park($0) }
        }
        return durability.takeBatch(root: data.working, applied: data.appliedSequence)
    }
}

/// Lets only the first of several racing answers through.
private final class FirstAnswer: Sendable {
    private let answered = Atomic<Bool>(false)

    /// True for the first caller only.
    func claim() -> Bool { !answered.exchange(true, ordering: .acquiringAndReleasing) }

    /// Whether someone has claimed it.
    var isClaimed: Bool { answered.load(ordering: .acquiring) }
}
