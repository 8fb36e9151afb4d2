import RTDBCore
import RTDBRules
import RTDBWire

/// How onDisconnect writes are judged and run, apart from the namespace that holds them: given
/// the rules, the data and the time, it says what runs, what the data becomes and what is
/// refused; the engine applies, logs and counts the outcome.
struct OnDisconnectJudge {
    /// The rules in force.
    var rules: SecurityRules
    /// The time the writes' server values resolve to and the rules see.
    var now: UnixTime

    /// One ended session's onDisconnect writes, due to run as the identity that registered them.
    struct Due {
        var writes: [(path: Path, node: Node)]
        var auth: RuleAuth
        var sessionID: String
    }

    /// Why an onDisconnect write would not run.
    struct Refusal: Error {
        /// In words, for the log and the dry run.
        var reason: String
        /// The rules' refusal, when it is the rules that refuse.
        var byRules: RuleRefusal?
    }

    /// What running ended sessions' writes comes to.
    struct Run {
        /// The writes that run, as one change (nil: none runs).
        var change: TreeChange?
        /// The data with them made.
        var root: Node
        /// How many writes run.
        var ran = 0
        /// The writes refused, each with its session and identity.
        var refused: [(sessionID: String, auth: RuleAuth, path: Path, refusal: Refusal)] = []
    }

    /// The nodes an onDisconnect registration holds, each at its place: the path writable, an
    /// update's relative paths apart, each value valid data for its place.
    static func nodes(at path: Path, children: [(relative: Path, data: JSONValue)]) throws(WireError) -> [(
        path: Path, node: Node
    )] {
        try TreeChange.checkWritable(path)
        do {
            if children.count > 1 || children.first?.relative.isEmpty == false {
                try Validation.validateUpdatePaths(children.map(\.relative), at: path)
            }
            var nodes: [(path: Path, node: Node)] = []
            for (relative, data) in children {
                let target = path.child(relative)
                nodes.append((target, try Node(json: data, at: target.writeTarget)))
            }
            return nodes
        } catch {
            throw WireError(error)
        }
    }

    /// Runs the writes of sessions that ended together on `root`: each session's in order, each
    /// write resolved and checked against the rules on the data as the writes before it left it
    /// (one that fails either is refused), as if they ran one by one.
    ///
    /// The writes that run make one change (a merge at their nearest common ancestor, a write
    /// inside an earlier one folded into it). Rules that read no data judge a write the same with
    /// or without the writes before it in place: those go into the tree together (each level
    /// rebuilt once for all of them), when an increment needs what they left, and at the end.
    func run(_ due: [Due], on root: Node) -> Run {
        let together = !rules.writesDependOnData
        var run = Run(root: root)
        var waiting: [(path: Path, node: Node)] = []
        var ran = SparseSnapshotTree()
        for session in due {
            for (path, node) in session.writes {
                if !waiting.isEmpty, node.containsIncrements {
                    run.root = run.root.updating(batch: waiting)
                    waiting = []
                }
                switch judge(path, node, auth: session.auth, root: run.root) {
                case .success(let (resolved, newRoot)):
                    if together {
                        // No rule looks at new data: the rules made no new root.
                        waiting.append((path, resolved))
                    } else {
                        run.root = newRoot ?? run.root.updating(at: path, with: resolved)
                    }
                    ran.remember(path, resolved)
                    run.ran += 1
                case .failure(let refusal):
                    run.refused.append((session.sessionID, session.auth, path, refusal))
                }
            }
        }
        if !waiting.isEmpty { run.root = run.root.updating(batch: waiting) }
        let writes = ran.unorderedOverwrites()
        guard let first = writes.first else { return run }
        if writes.count == 1 {
            run.change = .set(path: first.path, node: first.node)
        } else {
            let ancestor = writes.dropFirst().reduce(first.path) { $0.commonAncestor(with: $1.path) }
            let children = writes.map { (relative: ancestor.relativePath(to: $0.path) ?? $0.path, node: $0.node) }
            run.change = .merge(path: ancestor, children: children)
        }
        return run
    }

    /// Whether a live session's writes would run now as `auth`, judged as ``run(_:on:)`` judges
    /// them (in order, each seeing the ones before it), with nothing applied and no evaluation
    /// counted in the coverage.
    func dryRun(_ writes: [(path: Path, node: Node)], auth: RuleAuth, on root: Node) -> [OnDisconnectDryRun.Write] {
        let judge = OnDisconnectJudge(rules: rules.unrecorded, now: now)
        var root = root
        return writes.map { path, node in
            switch judge.judge(path, node, auth: auth, root: root) {
            case .success(let (resolved, newRoot)):
                root = newRoot ?? root.updating(at: path, with: resolved)
                return .init(path: path.description, removes: node.isEmpty, runs: true)
            case .failure(let refusal):
                return .init(path: path.description, removes: node.isEmpty, runs: false, reason: refusal.reason)
            }
        }
    }

    /// One write as it would run now on `root` as `auth`: resolved, then checked against the
    /// rules; when it may run, the write resolved and the data with it made, when the rules made it.
    func judge(_ path: Path, _ node: Node, auth: RuleAuth, root: Node) -> Result<
        (resolved: Node, newRoot: Node?), Refusal
    > {
        let resolved: Node
        do {
            resolved = try node.resolvingServerValues(existingAt: { root.child(at: path) }, now: now, at: path)
        } catch {
            return .failure(Refusal(reason: "\(error)"))
        }
        let (decision, newRoot) = rules.judgeWrite([(path, resolved)], auth: auth, root: root, now: now)
        if case .denied(let refusal) = decision {
            return .failure(Refusal(reason: "the rules refuse it now: \(refusal)", byRules: refusal))
        }
        return .success((resolved, newRoot))
    }
}
