import RTDBCore
import RTDBWire

/// The connection's credential (docs/client-engine.md#auth): sent at each connection and when the
/// app sets one, writes paused while it is expired or refused, and a provider's renewed before it
/// expires.
///
/// `@unchecked Sendable` is safe because, like its connection, it is used only on the engine's
/// queue: the provider's answers hop onto it before touching anything.
final class ConnectionAuth: @unchecked Sendable {
    /// The connection it signs in (which owns it).
    weak var connection: PersistentConnection?
    /// The credential, its provider, and whether writes wait for one.
    var state = CredentialState()

    /// The credential sent at each connection, if any.
    var credential: DatabaseToken? { state.credential }

    /// Whether writes wait: paused by an expired or refused credential, or for the answer to one.
    var holdsWrites: Bool { state.pausedReason != nil || state.awaitingAnswer }

    /// Why writes are held back (an expired or refused credential), if they are; the repo hears of
    /// each change.
    var pausedReason: String? {
        get { state.pausedReason }
        set {
            guard newValue != state.pausedReason else { return }
            state.pausedReason = newValue
            connection?.delegate?.connectionWritesPaused(newValue)
        }
    }

    /// Sets the credential (an ID token, an emulator JWT, `owner`, or a provider's); nil signs out.
    ///
    /// Writes paused by an expired credential go out once the new one is accepted (at once when
    /// signing out: the app chose to write as nobody). On a live connection, writes not yet sent
    /// wait for the server's answer to the new credential.
    func set(_ credential: DatabaseToken?) {
        state.use(credential)
        if credential == nil { pausedReason = nil }
        guard let connection, connection.isReady else { return }
        if let credential {
            send(credential, on: connection)
        } else {
            state.awaitingAnswer = false
            connection.send(.unauth, onComplete: nil)
            connection.sendQueuedPuts()
        }
    }

    /// At a new connection's handshake: sends the credential first, or pauses the writes if it
    /// expired while offline (sent without it they would be refused, or applied as nobody).
    func restore(on connection: PersistentConnection) {
        state.awaitingAnswer = false
        guard let credential = state.credential else { return }
        if let expiry = state.expiresAt, expiry <= connection.clock() + connection.status.serverTimeOffset {
            pausedReason = "the credential expired at \(expiry); set a new one to send queued writes"
            spent()
        } else {
            send(credential, on: connection)
        }
    }

    /// The server answered a write `expired_token` (sent before this client heard): it waits for a
    /// new credential; false when signed out (then it is an answer like any other).
    func writeFoundExpired(_ data: JSONValue) -> Bool {
        guard state.credential != nil else { return false }
        pausedReason = "the credential expired (\(data.stringValue ?? WireStatus.expiredToken.rawValue)); set a new one"
        spent()
        return true
    }

    /// The credential expired on the live connection: the server now treats it as signed out, so
    /// writes wait for a new credential instead of being refused by the rules.
    func revoked(_ status: WireStatus, reason: String) {
        guard state.credential != nil else { return }
        pausedReason = "the server revoked the credential (\(status): \(reason)); set a new one"
        spent()
    }

    /// Sends `credential` and holds the writes for its answer (the server may refuse it, and what
    /// was pipelined behind it would be judged signed out).
    private func send(_ credential: DatabaseToken, on connection: PersistentConnection) {
        state.awaitingAnswer = true
        connection.send(credential.request) { [weak self] status, data in
            guard let self, self.state.credential == credential else { return }
            self.state.awaitingAnswer = false
            if status.isOK {
                self.pausedReason = nil
                self.accepted(credential)
                self.connection?.sendQueuedPuts()
            } else {
                self.pausedReason = "the server refused the credential (\(status): \(data.stringValue ?? ""))"
                self.spent()
            }
        }
    }
}
