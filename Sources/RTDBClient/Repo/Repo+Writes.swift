import RTDBCore
import RTDBWire

extension Repo {
    typealias Completion = @Sendable (DatabaseError?) -> Void

    /// The node for a write target, or nil after reporting why it is invalid.
    func validatedNode(_ json: JSONValue, at path: Path, completion: Completion?) -> Node? {
        do throws(ValidationError) {
            return try WriteInput.node(json, at: path)
        } catch {
            fail(completion, error)
            return nil
        }
    }

    func fail(_ completion: Completion?, _ error: ValidationError) {
        logger.error("\(error)")
        guard let completion else { return }
        let databaseError = DatabaseError(error)
        callbackQueue.async { completion(databaseError) }
    }

    func set(_ path: Path, value: Any?, priority: Any?, completion: Completion?) {
        do throws(ValidationError) {
            set(path, json: try WriteInput.exportJSON(value, priority: priority, at: path), completion: completion)
        } catch {
            fail(completion, error)
        }
    }

    /// A user set: applied locally at once (server values resolved with the estimated server
    /// time), queued (on disk with persistence), then sent; acknowledged, reverted or moved to the
    /// dead letters when the server answers.
    func set(_ path: Path, json: JSONValue, completion: Completion?) {
        take { [self] in
            guard let node = validatedNode(json, at: path, completion: completion) else { return }
            let write = StoredWrite(
                id: allocateWriteID(), kind: node.isEmpty ? .remove : .set, path: path, node: node, enqueuedAt: clock())
            guard enqueue(write, completion: completion) else { return }
            let resolved = resolveLocally(node, at: path)
            raise(serverTree.applyUserOverwrite(path, resolved, writeID: write.id))
            if let database { transactions.abort(overlapping: path, database: database) }
            send(write, completion: completion)
        }
    }

    func update(_ path: Path, values: [(String, Any?)], completion: Completion?) {
        let children: [(String, JSONValue)]
        do throws(ValidationError) {
            children = try WriteInput.jsonChildren(values, at: path)
        } catch {
            return fail(completion, error)
        }
        take { [self] in
            let nodes: [(path: Path, node: Node)]
            do throws(ValidationError) {
                nodes = try WriteInput.updateNodes(children, at: path)
            } catch {
                return fail(completion, error)
            }
            if nodes.isEmpty { return complete(completion, error: nil) }
            var data = JSONValue.Members()
            for (key, node) in zip(children.map(\.0), nodes.map(\.node)) { data[CodeUnitString(key)] = node.exportJSON }
            let write = StoredWrite(
                id: allocateWriteID(), kind: .update, path: path, data: .object(data), enqueuedAt: clock())
            guard enqueue(write, completion: completion) else { return }
            let now = serverTime
            let resolved = nodes.map { child in
                (child.path, resolveLocally(child.node, at: path.child(child.path), now: now))
            }
            raise(serverTree.applyUserMerge(path, resolved, writeID: write.id))
            if let database { transactions.abort(overlapping: path, database: database) }
            send(write, completion: completion)
        }
    }

    /// Queues a user write within the queue's bound; `false` after reporting why it did not fit.
    func enqueue(_ write: StoredWrite, completion: Completion?) -> Bool {
        do throws(DatabaseError) {
            try pendingWrites.add(write, within: writes.maxBytes)
            return true
        } catch {
            logger.error("\(error)")
            complete(completion, error: error)
            return false
        }
    }

    /// Resolves server values with the estimated server time (the data there only when needed:
    /// finding it means a pass over the pending writes).
    func resolveLocally(_ node: Node, at path: Path, now: UnixTime? = nil) -> Node {
        guard node.containsServerValues else { return node }
        return node.resolvingServerValues(existing: serverTree.calcCompleteEventCache(path), now: now ?? serverTime)
    }

    func allocateWriteID() -> Int {
        defer { writeIDs.next += 1 }
        return writeIDs.next
    }

    /// Sends a queued set or update with its idempotency key; handles the server's answer.
    func send(_ write: StoredWrite, completion: Completion?) {
        guard let data = write.putData else {
            // Its stored text is not what this program wrote (the file was edited): sent, it
            // would be a write nobody made. Dropped, and its local effect undone.
            logger.error("persistence: write \(write.id) on disk is not valid JSON any more; dropped")
            raise(serverTree.ackUserWrite(write.id, revert: true))
            pendingWrites.remove(write.id)
            return complete(
                completion, error: DatabaseError(code: .invalidData, message: "the stored write is not valid JSON"))
        }
        // The callbacks hold the id and path, not the write: a restart hands thousands over, and
        // each copy of a write retains every field of it.
        let (id, path) = (write.id, write.path)
        let onSend: () -> Void = { [weak self] in self?.pendingWrites.markSent(id) }
        put(
            write.kind == .update ? .merge : .set, path: path, data: data, idempotencyKey: writeIDs.key(id),
            onSend: onSend
        ) { [self] status, data in
            let refusal = settle(id, at: path, syncWriteID: id, status: status, data: data)
            // Refused for now (not a dead letter): dropped, as the SDKs do.
            if let refusal, !refusal.deadLettered { pendingWrites.remove(id) }
            complete(completion, error: refusal?.error)
        }
    }

    /// The server's answer to a queued write (a set, an update, or a named transaction's attempt):
    /// the sync tree learns it; an acknowledged write leaves the queue, and one refused for good
    /// becomes a dead letter.
    ///
    /// - Returns: nil when acknowledged; else the error, and whether the write is now a dead letter
    ///   (if not, it is still queued, for the caller to drop or retry).
    func settle(_ id: Int, at path: Path, syncWriteID: Int, status: WireStatus, data: JSONValue) -> (
        error: DatabaseError, deadLettered: Bool
    )? {
        raise(serverTree.ackUserWrite(syncWriteID, revert: !status.isOK))
        if status.isOK {
            pendingWrites.remove(id)
            return nil
        }
        let error = DatabaseError(status: status, data: data)
        guard Repo.deadLetterStatuses.contains(status) else { return (error, false) }
        logger.warning("write \(id) at \(path) refused (\(status)): moved to the dead letters")
        pendingWrites.deadLetter(id, status: status, reason: error.message, at: clock())
        return (error, true)
    }

    /// The one way a write reaches the connection: restored writes not handed over yet go first,
    /// so the server sees every write in the order it was made.
    func put(
        _ kind: OutstandingPut.Kind, path: Path, data: PutData, hash: String? = nil,
        idempotencyKey: String? = nil, onSend: (() -> Void)? = nil,
        onComplete: @escaping (WireStatus, JSONValue) -> Void
    ) {
        handOverRestoredWrites()
        connection.put(
            kind, path: path, data: data, hash: hash, idempotencyKey: idempotencyKey, onSend: onSend,
            onComplete: onComplete)
    }

    /// Refusals that sending again would not change, and a server that could not store the write
    /// (`unavailable`, its disk failed): the write becomes a dead letter, kept with the reason
    /// for the user to send again or forget, never dropped unseen.
    static let deadLetterStatuses: Set<WireStatus> = [
        .permissionDenied, .tooBig, .invalidData, .invalidPath, .invalidRequest, .invalidQuery, .unknownAction,
        .writeTooBig, .unavailable,
    ]

    // MARK: - onDisconnect

    func onDisconnectSet(_ path: Path, value: Any?, priority: Any?, completion: Completion?) {
        let json: JSONValue
        do throws(ValidationError) {
            json = try WriteInput.exportJSON(value, priority: priority, at: path)
        } catch {
            return fail(completion, error)
        }
        schedule { [self] in
            guard let node = validatedNode(json, at: path, completion: completion) else { return }
            connection.onDisconnect(.onDisconnectPut(path: path, data: json)) { [self] status, data in
                if status.isOK {
                    onDisconnect.acknowledgedSet(node, at: path, at: clock())
                }
                complete(completion, status: status, data: data)
            }
        }
    }

    func onDisconnectUpdate(_ path: Path, values: [(String, Any?)], completion: Completion?) {
        let children: [(String, JSONValue)]
        do throws(ValidationError) {
            children = try WriteInput.jsonChildren(values, at: path)
        } catch {
            return fail(completion, error)
        }
        schedule { [self] in
            let nodes: [(path: Path, node: Node)]
            do throws(ValidationError) {
                nodes = try WriteInput.updateNodes(children, at: path)
            } catch {
                return fail(completion, error)
            }
            var data = JSONValue.Members()
            for (key, json) in children { data[CodeUnitString(key)] = json }
            connection.onDisconnect(.onDisconnectMerge(path: path, data: data)) { [self] status, data in
                if status.isOK {
                    onDisconnect.acknowledgedUpdate(nodes, at: path, at: clock())
                }
                complete(completion, status: status, data: data)
            }
        }
    }

    func onDisconnectCancel(_ path: Path, completion: Completion?) {
        schedule { [self] in
            connection.onDisconnect(.onDisconnectCancel(path: path)) { [self] status, data in
                if status.isOK {
                    onDisconnect.acknowledgedCancel(at: path)
                }
                complete(completion, status: status, data: data)
            }
        }
    }

    /// The connection dropped: show this client's onDisconnect writes locally, as the server will
    /// apply them (docs/client-engine.md#ondisconnect-locally).
    func runOnDisconnectLocally() {
        let now = serverTime
        var events: [SyncEvent] = []
        for (path, node) in onDisconnect.takeWrites() {
            let existing = serverTree.calcCompleteEventCache(path)
            events += serverTree.applyServerOverwrite(path, node.resolvingServerValues(existing: existing, now: now))
        }
        raise(events)
    }
}
