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
            try TreeChange.checkWritable(path)
            if children.count > 1 || children.first?.relative.isEmpty == false {
                do {
                    try Validation.validateUpdatePaths(children.map(\.relative), at: path)
                } catch {
                    throw WireError(error)
                }
            }
            var nodes: [(Path, Node)] = []
            for (relative, data) in children {
                let target = path.child(relative)
                do {
                    nodes.append((target, try Node(json: data, at: target.writeTarget)))
                } catch {
                    throw WireError(error)
                }
            }
            let now = clock()
            try authorizeWrite(
                nodes.map { ($0.0, $0.1.resolvingServerValues(existing: root.child(at: $0.0), now: now)) }, auth: auth,
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
        guard let session = sessions[outlet.id] else { return }
        connections.update(session.sessionID) { $0.onDisconnectCount = session.onDisconnect.count }
        let writes = session.onDisconnect.overwrites()
        guard !writes.isEmpty || session.isStored else { return }
        sessions[outlet.id]?.isStored = !writes.isEmpty
        log(
            OnDisconnectRecord(sessionID: session.sessionID, auth: session.onDisconnectAuth, writes: writes),
            by: outlet.id)
    }

    /// One ended session's onDisconnect writes, due to run as the identity that registered them.
    struct DueOnDisconnect {
        var writes: [(path: Path, node: Node)]
        var auth: RuleAuth
        var sessionID: String
    }

    /// Runs the onDisconnect writes of sessions that ended together: each session's in order, each
    /// write resolved and checked against the rules on the data as the writes before it left it
    /// (one that fails either is skipped and logged), as if they ran one by one.
    ///
    /// The writes that run are applied as one change (a merge at their nearest common ancestor,
    /// a write inside an earlier one folded into it): one apply, one log record and one publish
    /// for a mass disconnect, not one per write.
    ///
    /// Rules that read no data judge a write the same with or without the writes before it in
    /// place: those go into the tree together (each level rebuilt once for all of them), when an
    /// increment needs what they left, and at the end.
    func runOnDisconnect(_ due: [DueOnDisconnect]) {
        let now = clock()
        let together = !rules.writesDependOnData
        var working = root
        var waiting: [(path: Path, node: Node)] = []
        var ran = SparseSnapshotTree()
        for session in due {
            for (path, node) in session.writes {
                if !waiting.isEmpty, node.containsIncrements {
                    working = working.updating(batch: waiting)
                    waiting = []
                }
                switch judgeOnDisconnect(path, node, auth: session.auth, root: working, now: now) {
                case .success(let (resolved, newRoot)):
                    if together {
                        // No rule looks at new data: the rules made no new root.
                        waiting.append((path, resolved))
                    } else {
                        working = newRoot ?? working.updating(at: path, with: resolved)
                    }
                    ran.remember(path, resolved)
                    metrics.onDisconnectRun.increment()
                case .failure(let refusal):
                    if let byRules = refusal.byRules {
                        noteDenial(byRules, auth: session.auth, path: path, operation: .onDisconnect)
                    }
                    logger.notice(
                        "session \(session.sessionID): onDisconnect write at \(path) skipped, \(refusal.reason)")
                }
            }
        }
        if !waiting.isEmpty { working = working.updating(batch: waiting) }
        let writes = ran.unorderedOverwrites()
        guard let first = writes.first else { return }
        if writes.count == 1 {
            apply(.set(path: first.path, node: first.node), newRoot: working, byServer: true)
            return
        }
        let ancestor = writes.dropFirst().reduce(first.path) { $0.commonAncestor(with: $1.path) }
        let children = writes.map { (relative: ancestor.relativePath(to: $0.path) ?? $0.path, node: $0.node) }
        apply(.merge(path: ancestor, children: children), newRoot: working, byServer: true)
    }

    /// Whether a live session's onDisconnect writes would run now, judged as ``runOnDisconnect``
    /// judges them (in order, each seeing the ones before it), with nothing applied.
    func onDisconnectDryRun(_ outlet: Outlet) -> OnDisconnectDryRun {
        guard let session = sessions[outlet.id] else {
            return OnDisconnectDryRun(writes: [], runsAs: nil, expiresAt: nil)
        }
        let auth = RuleAuth(session.onDisconnectAuth)
        let now = clock()
        var root = root
        var writes: [OnDisconnectDryRun.Write] = []
        for (path, node) in session.onDisconnect.overwrites() {
            switch judgeOnDisconnect(path, node, auth: auth, root: root, now: now, dryRun: true) {
            case .success(let (resolved, newRoot)):
                root = newRoot ?? root.updating(at: path, with: resolved)
                writes.append(.init(path: path.description, removes: node.isEmpty, runs: true))
            case .failure(let refusal):
                writes.append(.init(path: path.description, removes: node.isEmpty, runs: false, reason: refusal.reason))
            }
        }
        let identity = session.onDisconnectAuth
        return OnDisconnectDryRun(
            writes: writes, runsAs: identity.flatMap { $0.isAdmin ? "owner" : $0.uid }, expiresAt: identity?.expiresAt)
    }

    /// Why an onDisconnect write would not run.
    struct OnDisconnectRefusal: Error {
        /// In words, for the log and the dry run.
        var reason: String
        /// The rules' refusal, when it is the rules that refuse.
        var byRules: RuleRefusal?
    }

    /// One onDisconnect write as it would run now: resolved, then checked against the rules.
    ///
    /// It is judged on `root` as `auth`. A dry run's evaluations are not counted in the coverage.
    ///
    /// When it may run: the write resolved, and the data with it made, when the rules made it.
    private func judgeOnDisconnect(
        _ path: Path, _ node: Node, auth: RuleAuth, root: Node, now: UnixTime, dryRun: Bool = false
    ) -> Result<(resolved: Node, newRoot: Node?), OnDisconnectRefusal> {
        let resolved: Node
        do {
            resolved = try node.resolvingServerValues(existingAt: { root.child(at: path) }, now: now, at: path)
        } catch {
            return .failure(OnDisconnectRefusal(reason: "\(error)"))
        }
        let rules = dryRun ? rules.unrecorded : rules
        let (decision, newRoot) = rules.judgeWrite([(path, resolved)], auth: auth, root: root, now: now)
        if case .denied(let refusal) = decision {
            return .failure(OnDisconnectRefusal(reason: "the rules refuse it now: \(refusal)", byRules: refusal))
        }
        return .success((resolved, newRoot))
    }

    // MARK: - Sessions of an earlier run

    /// Takes on the sessions the store still holds onDisconnect writes for, and runs those that
    /// have not come back after ``OrphanedSessions/grace``.
    func adopt(_ records: [OnDisconnectRecord]) {
        guard !records.isEmpty else { return }
        for record in records { orphans.records[record.sessionID] = record }
        logger.info(
            "namespace \(namespace): \(records.count) sessions from before the restart have onDisconnect writes; they run unless the sessions come back within \(orphans.grace)"
        )
        let grace = TimerDeadline(after: orphans.grace, on: timers)
        orphans.timer = Task { [weak self] in
            guard (try? await grace.wait()) != nil else { return }
            await self?.runOrphans()
        }
    }

    /// Whether sessions of an earlier run still wait to come back.
    public var hasOrphanedSessions: Bool { !orphans.records.isEmpty }

    private func runOrphans() {
        let due = orphans.takeAll()
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
            records.map { DueOnDisconnect(writes: $0.writes, auth: RuleAuth($0.auth), sessionID: $0.sessionID) })
        for record in records { log(OnDisconnectRecord(sessionID: record.sessionID, auth: nil, writes: []), by: nil) }
    }
}
