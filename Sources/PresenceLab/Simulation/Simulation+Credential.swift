import RTDBClient
import RTDBWire

extension Simulation {
    /// How long this device's ID tokens last, as Firebase Auth's do.
    static let credentialLifetimeSeconds: Int64 = 3_600
    /// How long before expiry a token is replaced, as Firebase Auth refreshes them.
    static let credentialRefreshMarginSeconds: Int64 = 300

    /// Signs this device in with an hour-long ID token for its user and keeps it fresh: a new one
    /// five minutes before it expires, unless the credential was expired on purpose (`a`).
    ///
    /// A credential left to expire on a live connection is revoked by the server, and the
    /// device's onDisconnect writes would then be refused when they fire (a ghost): refreshing
    /// is what keeps presence honest.
    ///
    /// The renewal waits on ``SimulationOptions/timers``.
    func signIn(_ device: SimulatedDevice, renewal: Bool = false) {
        let issuedAt = device.clock.now() / 1000
        let token = AuthToken.emulatorToken(
            uid: device.user, issuedAt: issuedAt, lifetime: Self.credentialLifetimeSeconds)
        let refreshIn = Self.credentialLifetimeSeconds - Self.credentialRefreshMarginSeconds
        let renewalDue = Self.sleeper(until: .seconds(refreshIn), on: options.timers)
        let refresh = Task { [weak self] in
            do {
                try await renewalDue()
            } catch {
                return  // cancelled: signed in again or expired on purpose meanwhile, or stopped
            }
            guard let self, !state.withLock({ $0.credentialExpired || $0.stopped }) else { return }
            signIn(device, renewal: true)
        }
        let previous = state.withLock { state in
            defer {
                state.credentialExpiresAt = (issuedAt + Self.credentialLifetimeSeconds) * 1000
                state.credentialRefresh = refresh
            }
            return state.credentialRefresh
        }
        previous?.cancel()
        device.database.setCredential(.idToken(token))
        if renewal { emit(.credentialRenewed(expiresAt: (issuedAt + Self.credentialLifetimeSeconds) * 1000)) }
    }

    /// Sleeps until `delay` after now on `clock`, the deadline fixed when this is called rather
    /// than when a task gets round to sleeping (so a test that moves time on at once is seen).
    private static func sleeper<C: Clock<Duration>>(until delay: Duration, on clock: C)
        -> @Sendable () async throws -> Void
    {
        let deadline = clock.now.advanced(by: delay)
        return { try await clock.sleep(until: deadline, tolerance: nil) }
    }
}
