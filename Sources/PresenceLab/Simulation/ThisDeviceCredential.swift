import RTDBCore
import Synchronization

/// This device's emulator credential as the simulation keeps it: whether it was expired on
/// purpose (`a`), when it expires, and the task that renews it before then.
final class ThisDeviceCredential: Sendable {
    private struct State {
        var expired = false
        var expiresAt: UnixTime?
        var refresh: Task<Void, Never>?
        var stopped = false
    }

    private let state = Mutex(State())

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
