import OrderedCollections
import RTDBCore
import RTDBRules
import RTDBWire

extension DatabaseEngine {
    /// Remembers onDisconnect writes, once the rules allow them as if they ran now, and stores
    /// them so that they run even if the server dies first.
    func registerOnDisconnect(
        _ outlet: Outlet, path: Path, children: [(relative: Path, data: JSONValue)], auth: RuleAuth
    ) -> Result<JSONValue, WireError> {
        do throws(WireError) {
            let nodes = try OnDisconnectJudge.nodes(at: path, children: children)
            let now = clock()
            try authorizeWrite(
                nodes.map { ($0.0, $0.1.resolvingServerValues(existing: data.working.child(at: $0.0), now: now)) },
                auth: auth,
                at: path, operation: .onDisconnect)
            for (target, node) in nodes { sessions[outlet.id]?.onDisconnect.remember(target, node) }
            onDisconnectChanged(outlet)
            return .success("")
        } catch {
            return .failure(error)
        }
    }

    /// Stores a live session's onDisconnect writes as they are now (or removes the stored copy
    /// when none are left) and updates the connection table.
    ///
    /// The answer to the request that changed them waits for the commit, as a write's does.
    func onDisconnectChanged(_ outlet: Outlet) {
        guard let record = sessions.onDisconnectChanged(outletID: outlet.id) else { return }
        log(record, by: outlet.id)
    }

    /// Runs the onDisconnect writes of sessions that ended together, as ``OnDisconnectJudge``
    /// runs them: one apply, one log record and one publish for a mass disconnect, not one per
    /// write; each refused write is logged (and noted, when the rules refused it).
    func runOnDisconnect(_ due: [OnDisconnectJudge.Due]) {
        let run = OnDisconnectJudge(rules: rules, now: clock()).run(due, on: data.working)
        metrics.sessions.onDisconnectRun.increment(by: Int64(run.ran))
        for (sessionID, auth, path, refusal) in run.refused {
            if let byRules = refusal.byRules { noteDenial(byRules, auth: auth, path: path, operation: .onDisconnect) }
            logger.notice("session \(sessionID): onDisconnect write at \(path) skipped, \(refusal.reason)")
        }
        if let change = run.change { apply(change, newRoot: run.root, byServer: true) }
    }

    /// Whether a live session's onDisconnect writes would run now, judged as ``runOnDisconnect``
    /// judges them (in order, each seeing the ones before it), with nothing applied.
    func onDisconnectDryRun(_ outlet: Outlet) -> OnDisconnectDryRun {
        guard let session = sessions[outlet.id] else {
            return OnDisconnectDryRun(writes: [], runsAs: nil, expiresAt: nil)
        }
        let judge = OnDisconnectJudge(rules: rules, now: clock())
        let writes = judge.dryRun(
            session.onDisconnect.overwrites(), auth: RuleAuth(session.onDisconnectAuth), on: data.working)
        let identity = session.onDisconnectAuth
        return OnDisconnectDryRun(
            writes: writes, runsAs: identity.flatMap { $0.isAdmin ? "owner" : $0.uid }, expiresAt: identity?.expiresAt)
    }

    // MARK: - Sessions of an earlier run

    /// Takes on the sessions the store still holds onDisconnect writes for, and runs those that
    /// have not come back after ``OrphanedSessions/grace``.
    func adopt(_ records: [OnDisconnectRecord]) {
        guard !records.isEmpty else { return }
        for record in records { sessions.orphans.records[record.sessionID] = record }
        logger.info(
            "namespace \(namespace): \(records.count) sessions from before the restart have onDisconnect writes; they run unless the sessions come back within \(sessions.orphans.grace)"
        )
        let grace = TimerDeadline(after: sessions.orphans.grace, on: timers)
        sessions.orphans.timer = Task { [weak self] in
            guard (try? await grace.wait()) != nil else { return }
            await self?.runOrphans()
        }
    }

    /// Whether sessions of an earlier run still wait to come back.
    public var hasOrphanedSessions: Bool { !sessions.orphans.records.isEmpty }

    private func runOrphans() {
        let due = sessions.orphans.takeAll()
        if !due.isEmpty {
            logger.info("namespace \(namespace): \(due.count) sessions from before the restart did not come back")
        }
        run(Array(due.values))
    }

    /// Runs stored sessions' writes as one batch, each as the identity that registered it (an
    /// expiry since does not change it, as for a live session), and removes them from the store
    /// in the same commit.
    func run(_ records: [OnDisconnectRecord]) {
        runOnDisconnect(
            records.map { OnDisconnectJudge.Due(writes: $0.writes, auth: RuleAuth($0.auth), sessionID: $0.sessionID) })
        for record in records { log(OnDisconnectRecord(sessionID: record.sessionID, auth: nil, writes: []), by: nil) }
    }
}
