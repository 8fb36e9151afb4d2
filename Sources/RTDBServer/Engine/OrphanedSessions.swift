import OrderedCollections

/// Sessions of an earlier run of the server that have not come back, with their onDisconnect
/// writes: they run when the session does come back, superseded (``DatabaseEngine``'s
/// `openSession`), or when ``grace`` has passed, whichever is first.
struct OrphanedSessions {
    /// How long they have to come back (the heartbeat timeout).
    let grace: Duration
    /// Their onDisconnect writes, by session id, in the order the store gave them.
    var records = OrderedDictionary<String, OnDisconnectRecord>()
    /// The grace's timer, while it runs.
    var timer: Task<Void, Never>?

    /// None yet, with `grace` to come back.
    init(grace: Duration) { self.grace = grace }

    /// Takes the one of `sessionID`, if it is still waiting.
    mutating func take(_ sessionID: String) -> OnDisconnectRecord? { records.removeValue(forKey: sessionID) }

    /// Takes them all (the grace ended).
    mutating func takeAll() -> OrderedDictionary<String, OnDisconnectRecord> {
        defer { records = [:] }
        return records
    }
}
