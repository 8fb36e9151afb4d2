/// Where a connection is in its life: whether the app wants it online, which attempt is the
/// current one, and whether the server's handshake has made it ready.
///
/// Timers and transport events carry the generation they were made in; one from an earlier
/// attempt finds a newer generation and does nothing, so nothing needs cancelling.
struct ConnectionLifecycle {
    /// What the app asked for.
    enum Intent: Equatable {
        /// Offline (`goOffline()`, or not resumed yet).
        case offline
        /// Online: connect, and reconnect after every loss.
        case online
        /// Closed for good (`Database.close()`): never connects again.
        case shutDown
    }

    /// What the app asked for.
    var intent = Intent.offline
    /// The current attempt's number; a timer or event of another one is stale.
    private(set) var generation = 0
    /// Whether the current attempt's handshake arrived (requests may go).
    var isReady = false

    /// Whether the app took it offline, or closed it.
    var isInterrupted: Bool { intent != .online }

    /// Starts a new generation (a new attempt, or the end of the current one) and returns it.
    @discardableResult
    mutating func advance() -> Int {
        generation += 1
        return generation
    }
}
