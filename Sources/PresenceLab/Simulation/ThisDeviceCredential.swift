import RTDBClient
import RTDBCore
import RTDBWire
import Synchronization

/// This device's emulator credential as the simulation keeps it: whether it was expired on
/// purpose (`a`), when it expires, and the task that renews it before then.
final class ThisDeviceCredential: Sendable {
    /// How long this device's ID tokens last, as Firebase Auth's do.
    static let lifetime: Duration = .seconds(3_600)
    /// How long before expiry a token is replaced, as Firebase Auth refreshes them.
    static let refreshMargin: Duration = .seconds(300)

    /// The user's own credentials (a real project), which their provider renews; nil: emulator
    /// tokens made here.
    private let provider: (any DatabaseTokenProvider)?
    /// What the renewal waits on.
    private let time: TimeSource

    private struct State {
        var expired = false
        var expiresAt: UnixTime?
        var refresh: Task<Void, Never>?
        var stopped = false
    }

    private let state = Mutex(State())

    /// A credential from `provider`, or made here and renewed on `time`.
    init(provider: (any DatabaseTokenProvider)?, time: TimeSource) {
        self.provider = provider
        self.time = time
    }

    /// Signs `device` in with an hour-long ID token for its user and keeps it fresh: a new one
    /// five minutes before it expires, unless the credential was expired on purpose (`a`);
    /// `renewed` hears of each renewal.
    ///
    /// A credential left to expire on a live connection is revoked by the server, and the
    /// device's onDisconnect writes would then be refused when they fire (a ghost): refreshing
    /// is what keeps presence honest.
    func signIn(
        _ device: SimulatedDevice, renewal: Bool = false, renewed: @escaping @Sendable (UnixTime) -> Void
    ) {
        if let provider {
            device.database.setTokenProvider(provider)
            return
        }
        let issuedAt = UnixTime(secondsSince1970: device.clock.now().secondsSince1970)
        let token = AuthToken.emulatorToken(
            uid: device.user, issuedAt: issuedAt.secondsSince1970, lifetime: Self.lifetime.wholeMilliseconds / 1000)
        let expiresAt = issuedAt + Self.lifetime
        let renewalDue = TimerDeadline(after: Self.lifetime - Self.refreshMargin, on: time.clock)
        let refresh = Task { [weak self] in
            do {
                try await renewalDue.wait()
            } catch {
                return  // cancelled: signed in again or expired on purpose meanwhile, or stopped
            }
            guard let self, !isDone else { return }
            signIn(device, renewal: true, renewed: renewed)
        }
        issued(expiringAt: expiresAt, renewedBy: refresh)
        device.database.setCredential(.idToken(token))
        if renewal { renewed(expiresAt) }
    }

    /// Whether the credential was expired on purpose.
    var isExpired: Bool { state.withLock { $0.expired } }

    /// Whether the renewal should stop: expired on purpose, or the simulation stopped.
    var isDone: Bool { state.withLock { $0.expired || $0.stopped } }

    /// When the credential in use expires (nil: never, or not known).
    var expiresAt: UnixTime? { state.withLock { $0.expiresAt } }

    /// Expires it on purpose, or lifts that; returns whether it is now expired.
    func toggleExpired() -> Bool {
        state.withLock { state in
            state.expired.toggle()
            return state.expired
        }
    }

    /// A credential expiring at `expiresAt` is in use.
    func issued(expiringAt expiresAt: UnixTime) { state.withLock { $0.expiresAt = expiresAt } }

    /// A credential expiring at `expiresAt` is in use, renewed by `refresh` (the one before is
    /// cancelled).
    func issued(expiringAt expiresAt: UnixTime, renewedBy refresh: Task<Void, Never>) {
        let previous = state.withLock { state in
            defer {
                state.expiresAt = expiresAt
                state.refresh = refresh
            }
            return state.refresh
        }
        previous?.cancel()
    }

    /// Stops renewing (the simulation stops); returns the renewal to cancel.
    func stop() -> Task<Void, Never>? {
        state.withLock { state in
            state.stopped = true
            return state.refresh
        }
    }
}
