import OrderedCollections
import RTDBCore
import RTDBRules
import RTDBWire

/// A request read from a connection, or why it could not be read.
public struct SessionRequest: Sendable {
    /// What was read.
    public enum Read: Sendable {
        /// A request, read the general way.
        case request(ClientRequest)
        /// A set or an update read straight from its text (``WireWrite``).
        case write(WireWrite)
        /// The error to answer with.
        case failure(WireError)
    }

    /// The request number to answer.
    public var number: Int
    /// The request, or the error to answer it with.
    public var read: Read

    /// Makes a session request.
    public init(number: Int, request: Result<ClientRequest, WireError>) {
        self.number = number
        switch request {
        case .success(let request): read = .request(request)
        case .failure(let error): read = .failure(error)
        }
    }

    /// A write read straight from its text.
    public init(_ write: WireWrite) {
        number = write.number
        read = .write(write)
    }
}

/// Per-connection state the engine keeps: identity, credential and onDisconnect writes.
struct SessionState: Sendable {
    var outlet: Outlet
    var sessionID: String
    var auth: AuthToken?
    /// ``auth`` as the rules see it, made once per credential rather than per request.
    var ruleAuth = RuleAuth.anonymous
    var onDisconnect = SparseSnapshotTree()
    /// Who ``onDisconnect`` runs as: the last credential the client set (nil after a sign-out).
    ///
    /// An expiry does not change it. The writes were allowed for this identity when registered,
    /// and are checked against the rules again as it when they run; a token that ran out while
    /// the app could not refresh it (a backgrounded tab, a dead phone) must not leave its
    /// presence behind forever.
    var onDisconnectAuth: AuthToken?
    /// Whether the store holds (or is about to) a copy of ``onDisconnect``.
    var isStored = false
    /// Revokes ``auth`` when it expires; cancelled when the credential changes or the
    /// connection closes.
    var expiry: Task<Void, Never>?
}

extension SessionState {
    /// Whether the connection is signed out because its credential expired (not by a sign-out).
    var credentialExpired: Bool { auth == nil && onDisconnectAuth != nil }

    /// Takes `token` as the connection's credential (nil: signed out), its expiry's timer
    /// cancelled; after a sign-in or a sign-out (not an expiry, `expired`) its onDisconnect
    /// writes run as it too.
    mutating func signIn(_ token: AuthToken?, expired: Bool) {
        expiry?.cancel()
        expiry = nil
        auth = token
        ruleAuth = RuleAuth(token)
        if !expired { onDisconnectAuth = token }
    }

    /// A write (or an onDisconnect registration) the rules refused only because the credential ran
    /// out is answered `expired_token`: the client keeps it and sends it again once it has a new
    /// credential, instead of giving it up as refused. (The revocation `ac` and a write sent before the client heard it cross on
    /// the wire; without this, that write would be lost.)
    func explainingExpiry<Value>(_ outcome: Result<Value, WireError>) -> Result<Value, WireError> {
        guard credentialExpired, case .failure(let error) = outcome, error.status == .permissionDenied else {
            return outcome
        }
        return .failure(
            WireError(
                status: .expiredToken,
                message: FirebaseText.expiredToken))
    }
}

extension DatabaseEngine {
    /// Starts serving a WebSocket connection.
    ///
    /// - Parameter supersedes: The session the client had before (its `ls=`): if that session is
    ///   one the server had when it stopped, its onDisconnect writes run now, before anything
    ///   this connection asks.
    public func openSession(outlet: Outlet, sessionID: String, supersedes: String? = nil) {
        if let orphan = sessions.open(outlet, sessionID: sessionID, supersedes: supersedes) {
            logger.info("session \(sessionID) supersedes \(orphan.sessionID), a session from before the restart")
            run([orphan])
        }
        countsChanged()
    }

    /// Ends a connection: drops its listens, then runs its onDisconnect writes.
    ///
    /// Server values in them are resolved now, and each is checked against the rules again as the
    /// identity that registered them (``SessionState/onDisconnectAuth``): one they no longer allow
    /// is skipped and logged.
    /// The writes and the removal of their stored copy are committed together. Safe to call twice.
    public func closeSession(outlet: Outlet) {
        closeSessions(outlets: [outlet])
    }

    /// ``closeSession(outlet:)``, together with the other sessions that end meanwhile: one hop to
    /// the namespace and one batch of onDisconnect writes for all of them (``ClosingQueue``).
    public nonisolated func closeSessionWithOthers(outlet: Outlet) async {
        await closings.close(outlet, in: self)
    }

    /// ``closeSessionWithOthers(outlet:)`` from code that cannot wait (an event loop): `done` runs
    /// once the session is closed, on the task that closed its batch.
    public nonisolated func closeSessionWithOthers(outlet: Outlet, then done: @escaping @Sendable () -> Void) {
        closings.close(outlet, in: self, then: done)
    }

    /// Ends the sessions of connections that closed together: their listens go, and their
    /// onDisconnect writes run as one batch (``runOnDisconnect(_:)``), then leave the store.
    public func closeSessions(outlets: [Outlet]) {
        let (due, stored, ended) = sessions.close(outlets)
        for outletID in ended { listens.removeAll(outlet: outletID) }
        runOnDisconnect(due)
        for sessionID in stored { log(OnDisconnectRecord(sessionID: sessionID, auth: nil, writes: []), by: nil) }
        countsChanged()
    }

    /// Handles requests of one connection in order, queueing their responses and pushes.
    ///
    /// A read (a listen, a get) waits for the writes applied before it that it must see to be
    /// published (``waitForWrites(before:)``), and the connection's later requests wait behind
    /// it: a connection's requests are handled in order, as Firebase handles them. Returns once
    /// every request of the batch is handled.
    public func handle(_ batch: [SessionRequest], outlet: Outlet) async {
        for item in batch {
            switch item.read {
            case .request(let request):
                if let path = request.readPath { await waitForWrites(before: path) }
                handle(request, number: item.number, outlet: outlet)
            case .write(let write): handle(write, outlet: outlet)
            case .failure(let error): respond(item.number, .failure(error), to: outlet)
            }
        }
    }

    /// Handles a set or an update read straight from its text, as ``handle(_:number:outlet:)``
    /// handles the same request read the general way.
    func handle(_ write: WireWrite, outlet: Outlet) {
        guard let session = sessions[outlet.id] else { return }
        let result: Result<UInt64, WireError>
        switch write.change {
        case .set(let node, let hash):
            result = set(
                write.path, node: node, expectedHash: hash, idempotencyKey: write.idempotencyKey,
                auth: session.ruleAuth, recordText: write.dataText)
        case .update(let children):
            result = update(
                write.path, children: children, idempotencyKey: write.idempotencyKey, auth: session.ruleAuth,
                recordText: write.dataText)
        }
        acknowledge(write.number, session.explainingExpiry(result), to: outlet)
    }

    /// Handles one request of a connection now and queues its response (and any pushes) in
    /// order; a read is answered from the stored tree as it is (``handle(_:outlet:)`` waits first).
    func handle(_ request: ClientRequest, number: Int, outlet: Outlet) {
        guard let session = sessions[outlet.id] else { return }
        let auth = session.ruleAuth
        let outcome: Result<JSONValue, WireError>
        switch request {
        case .listen(let path, let query, let tag, let hash):
            do throws(WireError) {
                let held = listens.count(of: outlet.id)
                if held >= limits.listensPerConnection {
                    throw WireError(
                        status: .limitExceeded,
                        message: "this connection holds \(held) listens, the server's limit per connection")
                }
                try addListen(
                    outlet: outlet, path: path, query: query, format: .websocket(tag: tag), hash: hash, auth: auth)
                updateListenCount(outlet)
                outcome = .success(isIndexed(query, at: path) ? [:] : ["w": ["no_index"]])
            } catch {
                outcome = .failure(error)
            }
        case .unlisten(let path, let query, _):
            removeListen(outlet: outlet, path: path, query: query)
            updateListenCount(outlet)
            outcome = .success("")
        case .put(let path, let data, let hash, let key):
            let result = set(path, data: data, expectedHash: hash, idempotencyKey: key, auth: auth)
            acknowledge(number, session.explainingExpiry(result), to: outlet)
            return
        case .merge(let path, let data, let key):
            acknowledge(
                number, session.explainingExpiry(update(path, data: data, idempotencyKey: key, auth: auth)), to: outlet)
            return
        case .onDisconnectPut(let path, let data):
            let outcome = registerOnDisconnect(outlet, path: path, children: [(.root, data)], auth: auth)
            respondOnceStored(number, session.explainingExpiry(outcome), to: outlet)
            return
        case .onDisconnectMerge(let path, let data):
            let outcome = registerOnDisconnect(
                outlet, path: path, children: data.map { (Path($0.key.string), $0.value) }, auth: auth)
            respondOnceStored(number, session.explainingExpiry(outcome), to: outlet)
            return
        case .onDisconnectCancel(let path):
            sessions[outlet.id]?.onDisconnect.forget(path)
            onDisconnectChanged(outlet)
            respondOnceStored(number, .success(""), to: outlet)
            return
        case .get(let path, let query):
            do throws(WireError) {
                outcome = .success(try readStored(path, query: query, auth: auth).result.exportJSON)
            } catch {
                outcome = .failure(error)
            }
        case .auth(let credential, let authVariable), .gauth(let credential, let authVariable):
            outcome = authenticate(outlet, credential: credential, actingAs: authVariable)
        case .unauth:
            setAuth(nil, for: outlet)
            outcome = .success("")
        case .onDisconnectDryRun:
            outcome = .success(onDisconnectDryRun(outlet).json)
        case .stats, .appCheck, .unappCheck:
            outcome = .success("")
        }
        respond(number, outcome, to: outlet)
    }

    /// Queues the response to request `number`.
    public func respond(_ number: Int, _ outcome: Result<JSONValue, WireError>, to outlet: Outlet) {
        send(OutboundItem.response(number, outcome), to: outlet)
    }

    /// Answers a write request: a refusal at once, an acknowledgement once the write is published.
    private func acknowledge(_ number: Int, _ result: Result<UInt64, WireError>, to outlet: Outlet) {
        switch result {
        case .success(let sequence):
            if durability.acknowledge(sequence, outlet: outlet, number: number) {
                respond(number, .success(""), to: outlet)
            }
        case .failure(let error):
            respond(number, .failure(error), to: outlet)
        }
    }

    /// Answers an onDisconnect request once the change it made is stored (`unavailable` if the
    /// disk does not take it).
    private func respondOnceStored(_ number: Int, _ outcome: Result<JSONValue, WireError>, to outlet: Outlet) {
        let item = OutboundItem.response(number, outcome)
        guard case .success = outcome else { return send(item, to: outlet) }
        let refusal = OutboundItem.response(number, .failure(.notStored))
        if let now = durability.hold(item, for: outlet, ticket: durability.onDisconnectTicket, refusal: refusal) {
            outlet.send(now)
        }
    }

    /// Takes a credential for a session; with the admin credential, `authVariable` (`authvar`,
    /// firebase-admin's `databaseAuthVariableOverride`) is the `auth` the rules see instead.
    private func authenticate(
        _ outlet: Outlet, credential: String, actingAs authVariable: JSONValue?
    ) -> Result<JSONValue, WireError> {
        do throws(WireError) {
            let token = try credentials.sessionToken(for: credential, actingAs: authVariable, now: clock())
            setAuth(token, for: outlet)
            if credentials.enforcesExpiry, let expiresAt = token.expiresAt, sessions[outlet.id] != nil {
                sessions[outlet.id]?.expiry = revokeAtExpiry(token, at: expiresAt, of: outlet)
            }
            return .success(["auth": token.claims, "expires": token.expiresAt.map { .int($0) } ?? .null])
        } catch {
            logger.info("credential refused (\(error.status.rawValue)): \(error.message)")
            return .failure(error.firebaseWorded)
        }
    }

    /// Revokes a live connection's credential when it expires, as Firebase does: the client hears
    /// `ac` with `expired_token`, the connection goes on signed out (its listens checked again),
    /// and the client pauses its writes until it sends a new credential.
    private func revokeAtExpiry(_ token: AuthToken, at expiresAt: Int64, of outlet: Outlet) -> Task<Void, Never> {
        // Fixed now (a test moves time on after this).
        let expiry = TimerDeadline(after: max(.zero, UnixTime(secondsSince1970: expiresAt) - clock()), on: timers)
        return Task { [weak self] in
            guard (try? await expiry.wait()) != nil else { return }
            await self?.expire(token, of: outlet)
        }
    }

    private func expire(_ token: AuthToken, of outlet: Outlet) {
        // Still the credential it was set for: a newer one (or a sign-out) has its own life.
        guard let session = sessions[outlet.id], session.auth == token else { return }
        logger.info("session \(session.sessionID): credential expired; revoked")
        let push = ServerPush.authRevoked(status: .expiredToken, reason: FirebaseText.expiredToken)
        send(.wire(WireMessage.push(push).text), to: outlet)
        setAuth(nil, for: outlet, expired: true)
    }

    /// Records a connection's credential (nil: signed out) in its session and the connection table.
    ///
    /// - Parameter expired: The credential ran out: the connection is signed out, but its
    ///   onDisconnect writes keep the identity that registered them.
    private func setAuth(_ token: AuthToken?, for outlet: Outlet, expired: Bool = false) {
        guard sessions.signIn(token, outletID: outlet.id, expired: expired) else {
            logger.warning("a credential for connection \(outlet.id), which has no session (it closed meanwhile)")
            return
        }
        let auth = RuleAuth(token)
        // The stored onDisconnect writes run as the identity the live ones would.
        if !expired, sessions[outlet.id]?.isStored == true { onDisconnectChanged(outlet) }
        // The connection's listens now read as the new identity; those it may not are revoked.
        for listen in listens.listens(of: outlet.id) { listens.setAuth(auth, for: listen.key) }
        revokeListensNoLongerAllowed(listens.listens(of: outlet.id))
    }

    private func updateListenCount(_ outlet: Outlet) {
        sessions.showListens(listens.count(of: outlet.id), outletID: outlet.id)
    }
}
