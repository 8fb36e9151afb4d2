import LinkSim
import RTDBClient
import RTDBCore

extension ConnectionPhase {
    /// A phase whose reason is only what this device saw (its connection reset by its link),
    /// with what the link saw added: the link could not reach the server, and why.
    func explained(by link: LinkStats) -> ConnectionPhase {
        guard case .waitingToRetry(let attempt, let retryAt, let reason) = self, link.mode == .up,
            let failure = link.upstreamFailure
        else { return self }
        let why = failure == 0 ? "no connection" : TransportFailure.describe(errno: failure)
        return .waitingToRetry(
            attempt: attempt, retryAt: retryAt, reason: "the link cannot reach the server: \(why) (here: \(reason))")
    }
}
