import RTDBCore
import RTDBRules
import RTDBWire

extension DatabaseEngine {
    /// The security rules in force.
    public var securityRules: SecurityRules { rules }

    /// Puts new rules in force, counted from nothing; listens they no longer allow are revoked at
    /// once.
    public func setRules(_ newRules: SecurityRules) {
        rulesInForce.replace(with: newRules)
        revokeListensNoLongerAllowed(listens.all)
    }

    /// Whether the rules index what `query` orders by at `path` (`.indexOn`).
    ///
    /// A listen that is not indexed gets the `no_index` warning, and the client tells its
    /// developer which index to add. Only child and value orders of queries with a range or limit
    /// need one, and only under rules a file gave (the server's own open rules index everything).
    func isIndexed(_ query: QueryParams, at path: Path) -> Bool {
        missingIndex(query, at: path) == nil
    }

    /// The `.indexOn` entry `query` needs at `path` and the rules lack (`age`, `.value`), or nil.
    func missingIndex(_ query: QueryParams, at path: Path) -> String? {
        guard !query.loadsAllData, !rules.indexesEverything else { return nil }
        let needed: String
        switch query.index {
        case .child(let child): needed = child.relativeString
        case .value: needed = ".value"
        case .key, .priority: return nil
        }
        return rules.indexes(at: path).contains(where: { CodeUnitString.equal($0, needed) }) ? nil : needed
    }

    /// Refuses a write the rules do not allow, with their reason, and notes the denial.
    ///
    /// - Parameters:
    ///   - changes: Each location and what it is to hold, server values resolved.
    ///   - path: Where the request writes (an update's parent), for the denial's note.
    ///   - operation: What the request is, for the denial's note.
    ///
    /// - Returns: The data as it would be after the writes, when the rules made it (`newData`):
    ///   ``apply(_:idempotencyKey:newRoot:)`` then takes it rather than making it again.
    @discardableResult
    func authorizeWrite(
        _ changes: [(path: Path, node: Node)], auth: RuleAuth, at path: Path, operation: RuleDenial.Operation
    ) throws(WireError) -> Node? {
        let (decision, newRoot) = rules.judgeWrite(changes, auth: auth, root: data.working, now: clock())
        guard case .denied(let refusal) = decision else { return newRoot }
        // The client hears Firebase's words; the explanation goes to the log and the report.
        logger.info("namespace \(namespace): \(operation.rawValue) at \(path) by \(auth) refused: \(refusal)")
        noteDenial(refusal, auth: auth, path: path, operation: operation)
        metrics.writes.rulesDenied.increment()
        throw WireError.permissionDenied
    }

    /// Keeps a refused request for the coverage report (`/.inspect/coverage.json`).
    func noteDenial(_ refusal: RuleRefusal, auth: RuleAuth, path: Path, operation: RuleDenial.Operation) {
        metrics.writes.denials[operation]?.increment()
        rules.coverage?.recordDenial(
            RuleDenial(at: clock(), who: auth.description, path: path, operation: operation, refusal: refusal))
    }

    /// Whether the rules let `auth` read `path` (what a write's answer may show of the data).
    func mayRead(_ path: Path, auth: RuleAuth) -> Bool {
        path.isInfo || rules.read(path, auth: auth, root: data.served, now: clock()).isAllowed
    }

    /// Refuses a read (a listen, a get, a REST read or stream) the rules do not allow, and notes
    /// the denial.
    func authorizeRead(_ path: Path, auth: RuleAuth, operation: RuleDenial.Operation) throws(WireError) {
        if path.isInfo { return }
        guard case .denied(let refusal) = rules.read(path, auth: auth, root: data.served, now: clock()) else {
            return
        }
        logger.info("namespace \(namespace): \(operation.rawValue) at \(path) by \(auth) refused: \(refusal)")
        noteDenial(refusal, auth: auth, path: path, operation: operation)
        throw WireError.permissionDenied
    }

    /// Checks listens against the rules again and revokes those no longer allowed: a WebSocket
    /// client hears `c` for it, a stream gets a `cancel` event and ends.
    func revokeListensNoLongerAllowed(_ candidates: [Listen]) {
        let now = clock()
        for listen in candidates where !listen.path.isInfo {
            guard case .denied(let refusal) = rules.read(listen.path, auth: listen.auth, root: data.served, now: now)
            else {
                continue
            }
            listens.remove(listen.key)
            logger.debug("namespace \(namespace): listen at \(listen.path) revoked: \(refusal)")
            noteDenial(refusal, auth: listen.auth, path: listen.path, operation: .revoke)
            switch listen.format {
            case .websocket(let tag):
                let query: JSONValue? = tag == nil ? nil : .array([listen.query.wireObject])
                send(.wire(WireMessage.push(.listenRevoked(path: listen.path, query: query)).text), to: listen.outlet)
                sessions.showListens(listens.count(of: listen.outlet.id), outletID: listen.outlet.id)
            case .serverSentEvents:
                send(.event(name: "cancel", data: "null"), to: listen.outlet)
                send(.close, to: listen.outlet)
            }
        }
    }
}

extension RuleAuth {
    /// Who a connection's credential makes it: admin for `owner`, signed out without one.
    init(_ token: AuthToken?) {
        guard let token else {
            self = .anonymous
            return
        }
        self = token.isAdmin ? .admin : .user(claims: token.claims)
    }
}
