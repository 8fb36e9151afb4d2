import RTDBClient
import RTDBCore
import RTDBWire

extension Simulation {
    /// How long this device's ID tokens last, as Firebase Auth's do.
    static let credentialLifetime: Duration = .seconds(3_600)
    /// How long before expiry a token is replaced, as Firebase Auth refreshes them.
    static let credentialRefreshMargin: Duration = .seconds(300)

    /// Signs this device in with an hour-long ID token for its user and keeps it fresh: a new one
    /// five minutes before it expires, unless the credential was expired on purpose (`a`).
    ///
    /// A credential left to expire on a live connection is revoked by the server, and the
    /// device's onDisconnect writes would then be refused when they fire (a ghost): refreshing
    /// is what keeps presence honest.
    ///
    /// The renewal waits on ``SimulationOptions/timers``.
    func signIn(_ device: SimulatedDevice, renewal: Bool = false) {
        if let credentials = options.credentials {
            // The user's own credentials (a real project): its provider renews them.
            device.database.setTokenProvider(credentials)
            return
        }
        let issuedAt = UnixTime(secondsSince1970: device.clock.now().secondsSince1970)
        let token = AuthToken.emulatorToken(
            uid: device.user, issuedAt: issuedAt.secondsSince1970,
            lifetime: Self.credentialLifetime.wholeMilliseconds / 1000)
        let expiresAt = issuedAt + Self.credentialLifetime
        let renewalDue = TimerDeadline(
            after: Self.credentialLifetime - Self.credentialRefreshMargin, on: options.time.clock)
        let refresh = Task { [weak self] in
            do {
                try await renewalDue.wait()
            } catch {
                return  // cancelled: signed in again or expired on purpose meanwhile, or stopped
            }
            guard let self, !credential.isDone else { return }
            signIn(device, renewal: true)
        }
        credential.issued(expiringAt: expiresAt, renewedBy: refresh)
        device.database.setCredential(.idToken(token))
        if renewal { emit(.credentialRenewed(expiresAt: expiresAt)) }
    }
}
