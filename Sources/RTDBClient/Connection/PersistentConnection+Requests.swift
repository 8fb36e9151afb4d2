import Foundation
import RTDBCore
import RTDBWire

extension PersistentConnection {
    /// Sends a request on the live connection; its callback runs on the response.
    @discardableResult
    func send(_ request: ClientRequest, onComplete: ((WireStatus, JSONValue) -> Void)?) -> Int {
        send(onComplete: onComplete) { WireMessage.requestText($0, request) }
    }

    /// Sends the request `text` writes for its number on the live connection; its callback runs
    /// on the response.
    @discardableResult
    private func send(onComplete: ((WireStatus, JSONValue) -> Void)?, text: (Int) -> String) -> Int {
        assertConfined()
        let number = outbox.number(onComplete: onComplete)
        let message = text(number)
        // Nearly every message is one frame: sent as it is, with no array of frames made.
        if WireFraming.fitsOneFrame(message) {
            send(frame: message)
        } else {
            for frame in WireFraming.frames(for: message) { send(frame: frame) }
        }
        return number
    }

    /// Hands one frame to the transport, or gathers it (``sendingTogether(_:)``).
    private func send(frame: String) {
        guard let frames = outbox.pass(frame) else { return }
        if frames.count == 1 { connection?.send(frames[0]) } else { connection?.send(frames) }
    }

    /// Runs `body`, handing the frames it sends to the transport in batches of
    /// ``RequestOutbox/framesPerWrite`` (a queue going out after a restart or a reconnect), in
    /// order.
    func sendingTogether(_ body: () -> Void) {
        guard !outbox.isGathering else { return body() }
        outbox.startGathering()
        body()
        if let frames = outbox.stopGathering() { connection?.send(frames) }
    }

    /// Sends a request that must survive a lost connection: until its response arrives it is kept,
    /// and a disconnect puts it back in the queue to go out on the next connection.
    private func sendRetained(_ request: QueuedRequest) {
        var number = 0
        number = send(request.request) { [weak self] status, data in
            guard let self else { return }
            self.requests.retained.removeValue(forKey: number)
            if status == .expiredToken, request.request.action.isOnDisconnect, self.auth.credential != nil {
                // Sent before this client heard that its credential expired: held until the next.
                self.requests.heldOnDisconnects.append(request)
                _ = self.auth.writeFoundExpired(data)
                return
            }
            request.onComplete?(status, data)
        }
        requests.retained[number] = request
    }

    /// Sends an onDisconnect operation now, or holds it while writes wait (paused, or for the
    /// answer to a credential).
    private func sendOrHold(_ request: QueuedRequest) {
        if canSendPuts { sendRetained(request) } else { requests.heldOnDisconnects.append(request) }
    }

    /// Sends auth, listens, queued onDisconnect operations, unacknowledged writes in order, then
    /// the other queued requests (reads).
    ///
    /// onDisconnect operations go before the writes (the SDKs send them after): the documented
    /// presence flow registers an entry's removal before writing the entry, and a connection lost
    /// between the two on replay would otherwise leave the entry with nothing to remove it, a
    /// ghost. An onDisconnect operation acts only when the connection ends, so sending it earlier
    /// changes nothing else.
    ///
    /// A credential that expired while offline is not sent, and the writes wait (paused) until the
    /// app sets a new one: sent without it they would be refused, or applied as nobody. A
    /// credential that is sent is answered before the writes and onDisconnect operations go: the
    /// server may refuse it (expired by its clock, if not by this one), and what was pipelined
    /// behind it would be judged signed out and refused (found by the chaos run).
    func restoreState() {
        sendingTogether { sendRestoredState() }
    }

    private func sendRestoredState() {
        auth.restore(on: self)
        for (_, listen) in requests.listens.sorted(by: { $0.key < $1.key }) { sendListen(listen) }
        let queued = requests.offline
        requests.offline = []
        for request in queued where request.request.action.isOnDisconnect { sendOrHold(request) }
        sendQueuedPuts()
        for request in queued where !request.request.action.isOnDisconnect { sendRetained(request) }
    }

    /// Sends the writes not yet sent on this connection, in order, unless they are paused.
    func sendQueuedPuts() {
        guard canSendPuts else { return }
        let held = requests.heldOnDisconnects
        requests.heldOnDisconnects = []
        sendingTogether {
            for request in held { sendRetained(request) }
            for index in requests.outstandingPuts.indices where !requests.outstandingPuts[index].sent {
                sendPut(at: index)
            }
        }
    }

    /// Whether writes may go out now: connected, not paused, and no credential's answer awaited.
    var canSendPuts: Bool { isReady && !auth.holdsWrites }

    // MARK: - Listens

    private static func key(_ query: QuerySpec) -> CodeUnitString { CodeUnitString(query.description) }

    func listen(
        _ query: QuerySpec, tag: Int?, hash: @escaping () -> String,
        onComplete: @escaping (WireStatus, JSONValue) -> Void
    ) {
        let listen = Listen(query: query, tag: tag, hash: hash, onComplete: onComplete)
        requests.listens[Self.key(query)] = listen
        if isReady { sendListen(listen) }
    }

    private func sendListen(_ listen: Listen) {
        let key = Self.key(listen.query)
        let request = ClientRequest.listen(
            path: listen.query.path, query: Self.wireQuery(listen.query, tag: listen.tag), tag: listen.tag,
            hash: listen.hash())
        send(request) { [weak self] status, data in
            guard let self, self.requests.listens[key] != nil else { return }
            if !status.isOK { self.requests.listens[key] = nil }
            listen.onComplete(status, data)
        }
    }

    func unlisten(_ query: QuerySpec, tag: Int?) {
        guard requests.listens.removeValue(forKey: Self.key(query)) != nil, isReady else { return }
        send(.unlisten(path: query.path, query: Self.wireQuery(query, tag: tag), tag: tag), onComplete: nil)
    }

    /// The query a listen sends: only a tagged listen names one; an untagged listen is of all the
    /// data at its path.
    private static func wireQuery(_ query: QuerySpec, tag: Int?) -> QueryParams {
        tag == nil ? .default : query.params
    }

    // MARK: - Writes

    /// Sends a set (`p`) or update (`m`); kept until acknowledged, re-sent after reconnects.
    ///
    /// `idempotencyKey` goes out as `ik` (our extension): our server applies a re-sent write once;
    /// other servers ignore the field.
    func put(
        _ kind: OutstandingPut.Kind, path: Path, data: PutData, hash: String? = nil,
        idempotencyKey: String? = nil, onSend: (() -> Void)? = nil,
        onComplete: @escaping (WireStatus, JSONValue) -> Void
    ) {
        requests.outstandingPuts.append(
            OutstandingPut(
                id: requests.nextPutID(), kind: kind, path: path, data: data, hash: hash,
                idempotencyKey: idempotencyKey,
                onSend: onSend, onComplete: onComplete))
        if canSendPuts { sendPut(at: requests.outstandingPuts.count - 1) }
    }

    private func sendPut(at index: Int) {
        // The entry is read where it lies, and the answer holds only its id and callback: a copy
        // of the entry retains every field, and a restart sends thousands.
        requests.outstandingPuts[index].sent = true
        requests.outstandingPuts[index].onSend?()
        let (id, onComplete) = (requests.outstandingPuts[index].id, requests.outstandingPuts[index].onComplete)
        let answered: (WireStatus, JSONValue) -> Void = { [weak self] status, data in
            guard let self else { return }
            // Answers come in order, so this finds the first entry at once, and the deque removes
            // it without moving the rest.
            guard let position = self.requests.outstandingPuts.firstIndex(where: { $0.id == id }) else {
                onComplete(status, data)
                return
            }
            if status == .expiredToken, self.auth.credential != nil {
                // Sent before this client heard that its credential expired: not applied, and not
                // refused for what it is. It waits, in its place, for a new credential.
                self.requests.outstandingPuts[position].sent = false
                _ = self.auth.writeFoundExpired(data)
                return
            }
            self.requests.outstandingPuts.remove(at: position)
            onComplete(status, data)
        }
        send(onComplete: answered) { number in requests.outstandingPuts[index].requestText(number) }
    }

    // MARK: - onDisconnect and get

    /// Sends an onDisconnect operation (`o`, `om`, `oc`), queued while offline and held while
    /// writes are paused.
    func onDisconnect(_ request: ClientRequest, onComplete: @escaping (WireStatus, JSONValue) -> Void) {
        let request = QueuedRequest(request: request, onComplete: onComplete)
        if isReady { sendOrHold(request) } else { requests.offline.append(request) }
    }

    /// Asks whether this connection's onDisconnect writes would run now (`odr`); answered
    /// `disconnect` at once when there is no connection, since the answer is about one.
    func onDisconnectDryRun(onComplete: @escaping (WireStatus, JSONValue) -> Void) {
        guard isReady else {
            onComplete(
                .disconnect, .string("not connected: the server holds no onDisconnect operations of this client now"))
            return
        }
        send(.onDisconnectDryRun, onComplete: onComplete)
    }

    /// How long a read once waits for a connection before it is answered `client_offline` (the
    /// SDKs' figure).
    static let getConnectTimeout: Duration = .seconds(3)

    /// Reads once (`g`); without a connection it waits for one up to ``getConnectTimeout``, then
    /// is answered `client_offline` (the caller falls back to the disk cache, as the SDKs do).
    func get(_ query: QuerySpec, onComplete: @escaping (WireStatus, JSONValue) -> Void) {
        let get = ClientRequest.get(path: query.path, query: query.params)
        guard !isReady else {
            sendRetained(QueuedRequest(request: get, onComplete: onComplete))
            return
        }
        let id = requests.nextGetID()
        requests.waitingGets[id] = onComplete
        requests.offline.append(
            QueuedRequest(request: get) { [weak self] status, data in
                self?.requests.waitingGets.removeValue(forKey: id)?(status, data)
            })
        after(Self.getConnectTimeout) { [weak self] in
            self?.requests.waitingGets.removeValue(forKey: id)?(.clientOffline, .string("the client is offline"))
        }
    }
}
