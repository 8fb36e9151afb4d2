/// What one device's app was told it wrote: each write counts once its call returned (with
/// persistence on, it is then on disk and must reach the server exactly once).
public struct ChaosLedger: Sendable, Equatable {
    /// Sequence numbers of accepted sets (`notes/<user>/<device>/s/<n>`).
    public var sets: Set<Int> = []
    /// Sequence numbers of accepted multi-path updates (`m/<n>` and an increment of `mc`).
    public var updates: Set<Int> = []
    /// Accepted increments of `c`.
    public var increments = 0
    /// Transactions on `t` started.
    public var transactionsStarted = 0
    /// Transactions on `t` whose completion said they committed.
    public var transactionsCommitted = 0
    /// Writes made while its disk was full: refused at once (`store_failed`), none accepted.
    public var refusedOnFullDisk = 0
    /// The next sequence number.
    var next = 0

    /// Makes an empty ledger.
    public init() {}
}
