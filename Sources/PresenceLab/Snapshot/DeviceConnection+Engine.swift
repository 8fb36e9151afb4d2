import RTDBClient

extension DeviceConnection {
    /// The engine's status in the snapshot's terms.
    init(_ status: ConnectionStatus) {
        self.init(
            phase: Phase(status.phase), serverTimeOffset: status.serverTimeOffset,
            skew: status.clockSkew.map { Skew(offset: $0.offset, errorBound: $0.errorBound, samples: $0.samples) },
            roundTrip: status.lastRoundTrip, connectedAt: status.connectedAt, lastHeardAt: status.lastHeardAt)
    }
}

extension DeviceConnection.Phase {
    /// The engine's phase in the snapshot's terms.
    init(_ phase: ConnectionPhase) {
        switch phase {
        case .offline: self = .offline
        case .connecting(let attempt): self = .connecting(attempt: attempt)
        case .connected(let sessionID): self = .connected(sessionID: sessionID)
        case .waitingToRetry(let attempt, let retryAt, let reason):
            self = .waitingToRetry(attempt: attempt, retryAt: retryAt, reason: reason)
        }
    }
}
