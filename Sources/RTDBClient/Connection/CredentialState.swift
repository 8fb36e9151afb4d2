import RTDBCore

/// The connection's credential: the one in use and when it expires, the provider new ones come
/// from, and whether writes wait for one.
struct CredentialState {
    /// The credential sent at each connection, if any.
    var credential: DatabaseToken?
    /// When it expires (server time), if it says.
    var expiresAt: UnixTime?
    /// Where credentials come from, if the app set a provider (``ConnectionAuth``).
    var provider: (any DatabaseTokenProvider)?
    /// Whether the provider's last credential was refused or expired: the next must be new.
    var lastRefused = false
    /// Credentials refused in a row since one was accepted (a provider that keeps handing out
    /// refused tokens is not asked again until the next connection).
    var refusedInARow = 0
    /// Counts the provider's credentials asked for, so that a late answer to an earlier request
    /// is not taken.
    var requests = 0
    /// Whether a new credential was sent on this connection and its answer has not come: writes
    /// wait for it, or they would be judged under a credential the server may refuse.
    var awaitingAnswer = false
    /// Why writes are held back (an expired or refused credential), if they are.
    var pausedReason: String?

    /// Takes `credential` (nil signs out).
    mutating func use(_ credential: DatabaseToken?) {
        self.credential = credential
        expiresAt = credential?.expiresAt
    }
}
