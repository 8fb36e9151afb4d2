import Logging
import RTDBCore

/// What a namespace is given when it opens and keeps unchanged: its name, its store, its clocks,
/// where it logs and counts, and the policies it applies to connections and credentials.
struct NamespaceContext: Sendable {
    /// The namespace's name.
    let namespace: String
    /// Where its writes are stored.
    let store: any DurableStore
    /// Its wall clock (server timestamps, token expiry).
    let clock: WallClock
    /// What its timers sleep on (credential expiry, the grace of orphaned sessions, a failed
    /// commit's retry).
    let timers: any Clock<Duration>
    /// The server's table of connections.
    let connections: ConnectionTable
    /// Where it logs.
    let logger: Logger
    /// How credentials are read (and whether they expire).
    let credentials: CredentialPolicy
    /// What one connection may hold (its listens; the rest is counted by the session).
    let limits: ConnectionLimits
    /// What the server counts (writes by outcome, commits, denials).
    let metrics: ServerMetrics
}
