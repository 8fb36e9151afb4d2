/// The pipeline and the task that commits it: what they decide together.
extension DurabilityPipeline {
    /// Whether a commit is under way or something waits to be committed.
    var isWorking: Bool { flusher.isCommitting || hasWork }

    /// Whether the flusher still has something to finish: a failure to retry, a commit under way,
    /// or work waiting.
    var isBusy: Bool { flusher.failure != nil || isWorking }

    /// The namespace closes: the flusher commits what is pending with a final checkpoint, then
    /// stops.
    mutating func close() {
        requestCheckpoint()
        flusher.isClosed = true
        flusher.wake()
    }
}
