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
    func signIn(_ device: SimulatedDevice) {
        let issuedAt = device.clock.now() / 1000
        let token = AuthToken.emulatorToken(
            uid: device.user, issuedAt: issuedAt, lifetime: Self.credentialLifetimeSeconds)
        let refreshIn = Self.credentialLifetimeSeconds - Self.credentialRefreshMarginSeconds
        let refresh = Task { [weak self] in
            try? await Task.sleep(for: .seconds(refreshIn))
            guard !Task.isCancelled, let self, !state.withLock({ $0.credentialExpired || $0.stopped }) else { return }
            signIn(device)
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
    }
}
