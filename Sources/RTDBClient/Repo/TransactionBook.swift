/// The repo's transactions: those in flight, and the named ones (registered by the app, or
/// restored from disk and waiting for their name to be registered).
struct TransactionBook {
    /// Registered transactions and restored ones waiting for their name.
    struct Named {
        /// Registered by the app, by name.
        var registered: [String: NamedTransaction] = [:]
        /// Restored from disk, waiting for their name.
        var held: [StoredWrite] = []
    }

    /// The transactions in flight, by path.
    var inFlight = TransactionsInFlight()
    /// The named ones.
    var named = Named()
}
