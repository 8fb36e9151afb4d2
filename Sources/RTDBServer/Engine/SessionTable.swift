import RTDBCore
import RTDBRules
import RTDBWire

/// A namespace's sessions: the live ones by connection, each with its credential and the writes
/// it registered to run when it ends, and those of an earlier run of the server that have not
/// come back (``OrphanedSessions``).
///
/// It keeps the server's table of connections in step with what it holds (the uid, the number of
/// onDisconnect writes); the engine decides when writes run and what is stored.
struct SessionTable {
    /// Live sessions by their outlet's id.
    private var live: [Int: SessionState] = [:]
    /// Sessions of an earlier run that have not come back, with their onDisconnect writes.
    var orphans: OrphanedSessions
    /// The server's table of connections, which shows what the sessions hold.
    let connections: ConnectionTable

    /// None yet; an earlier run's sessions have `orphanGrace` to come back once adopted.
    init(orphanGrace: Duration, connections: ConnectionTable) {
        orphans = OrphanedSessions(grace: orphanGrace)
        self.connections = connections
    }

    /// The live session of an outlet.
    subscript(outletID: Int) -> SessionState? {
        get { live[outletID] }
        set { live[outletID] = newValue }
    }

    /// The number of live sessions.
    var count: Int { live.count }

    /// Whether no session is live.
    var isEmpty: Bool { live.isEmpty }

    /// Opens `outlet`'s session; returns the onDisconnect writes of the earlier run's session it
    /// supersedes (its `ls=`), which run now, before anything this connection asks.
    mutating func open(_ outlet: Outlet, sessionID: String, supersedes: String?) -> OnDisconnectRecord? {
        let orphan = supersedes.flatMap { orphans.take($0) }
        live[outlet.id] = SessionState(outlet: outlet, sessionID: sessionID)
        return orphan
    }

    /// Ends the sessions of `outlets` (those still live; a second close finds none): their
    /// credentials' timers stop, and their onDisconnect writes are due, each as the identity that
    /// registered it.
    ///
    /// - Returns: The writes due, in the order the outlets came; the ids of the sessions whose
    ///   writes the store holds (to remove); the outlets whose sessions ended.
    mutating func close(_ outlets: [Outlet]) -> (due: [OnDisconnectJudge.Due], stored: [String], ended: [Int]) {
        var due: [OnDisconnectJudge.Due] = []
        var stored: [String] = []
        var ended: [Int] = []
        for outlet in outlets {
            guard let session = live.removeValue(forKey: outlet.id) else { continue }
            session.expiry?.cancel()
            ended.append(outlet.id)
            due.append(
                OnDisconnectJudge.Due(
                    writes: session.onDisconnect.overwrites(), auth: RuleAuth(session.onDisconnectAuth),
                    sessionID: session.sessionID))
            if session.isStored { stored.append(session.sessionID) }
        }
        return (due, stored, ended)
    }

    /// Takes `token` as the session's credential (nil: signed out; `expired`: ran out, its
    /// onDisconnect writes keep the identity that registered them) and shows its uid in the
    /// table; false when the outlet has no session (it closed meanwhile).
    mutating func signIn(_ token: AuthToken?, outletID: Int, expired: Bool) -> Bool {
        guard let sessionID = live[outletID]?.sessionID else { return false }
        live[outletID]?.signIn(token, expired: expired)
        connections.update(sessionID) { $0.authUID = token.flatMap { $0.isAdmin ? "owner" : $0.uid } }
        return true
    }

    /// The record to store after the session's onDisconnect writes changed.
    ///
    /// It holds the writes as they are now, or none to remove a stored copy; nil when there is
    /// nothing to store (no writes, and none stored) or no session. The table shows the new count
    /// either way.
    mutating func onDisconnectChanged(outletID: Int) -> OnDisconnectRecord? {
        guard let session = live[outletID] else { return nil }
        connections.update(session.sessionID) { $0.onDisconnectCount = session.onDisconnect.count }
        let writes = session.onDisconnect.overwrites()
        guard !writes.isEmpty || session.isStored else { return nil }
        live[outletID]?.isStored = !writes.isEmpty
        return OnDisconnectRecord(sessionID: session.sessionID, auth: session.onDisconnectAuth, writes: writes)
    }

    /// A change to a live session's onDisconnect writes the disk refused: they go back to what is
    /// stored for it (`record`; nil: nothing is).
    mutating func restore(outletID: Int, to record: OnDisconnectRecord?) {
        guard let session = live[outletID] else { return }
        var writes = SparseSnapshotTree()
        for (path, node) in record?.writes ?? [] { writes.remember(path, node) }
        live[outletID]?.onDisconnect = writes
        live[outletID]?.isStored = record != nil
        connections.update(session.sessionID) { $0.onDisconnectCount = writes.count }
    }

    /// Shows in the table how many listens the outlet's session holds.
    func showListens(_ count: Int, outletID: Int) {
        guard let session = live[outletID] else { return }
        connections.update(session.sessionID) { $0.listenCount = count }
    }
}
