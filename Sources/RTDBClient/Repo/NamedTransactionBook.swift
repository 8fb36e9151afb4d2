/// Named transactions: those the app registered, and those restored from disk that wait for
/// their name to be registered (then they resume).
struct NamedTransactionBook {
    /// Registered by the app, by name.
    var registered: [String: NamedTransaction] = [:]
    /// Restored from disk, waiting for their name.
    var held: [StoredWrite] = []
}
