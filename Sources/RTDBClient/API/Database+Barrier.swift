extension Database {
    /// Returns once the engine has run everything asked of it before this call and the callbacks
    /// that raised have run.
    ///
    /// No Firebase SDK has it: it is a barrier for tests and tools, so that "nothing happened"
    /// (no event, no state change) is checked after a round trip through the engine's queue and
    /// then the callback queue, not after a sleep. What the server has yet to send is not covered:
    /// wait for an answer from it first (`setValue`'s completion, `waitForPendingWrites`).
    public func barrier() async {
        let repo = repo
        await withCheckedContinuation { continuation in repo.barrier { continuation.resume() } }
    }
}
