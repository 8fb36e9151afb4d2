import RTDBCore

/// This connection's onDisconnect operations as the client knows them: what they will write
/// (applied locally when the connection ends, as the SDKs do) and how they were registered (for
/// the report).
struct LocalOnDisconnect {
    /// What they will write, by path.
    var tree = SparseSnapshotTree()
    /// The operations as registered.
    var registrations: [OnDisconnectRegistration] = []
}
