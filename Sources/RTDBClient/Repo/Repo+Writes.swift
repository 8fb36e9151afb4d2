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

    /// A user set, taken before it returns (``UserWrites/set(_:json:completion:)``).
    func set(_ path: Path, json: JSONValue, completion: Completion?) {
        take { [self] in userWrites.set(path, json: json, completion: completion) }
    }

    func update(_ path: Path, values: [(String, Any?)], completion: Completion?) {
        let children: [(String, JSONValue)]
        do throws(ValidationError) {
            children = try WriteInput.jsonChildren(values, at: path)
        } catch {
            return fail(completion, error)
        }
        take { [self] in userWrites.update(path, children: children, completion: completion) }
    }

    /// Resolves server values with the estimated server time (the data there only when needed:
    /// finding it means a pass over the pending writes).
    func resolveLocally(_ node: Node, at path: Path, now: UnixTime? = nil) -> Node {
        guard node.containsServerValues else { return node }
        return node.resolvingServerValues(existing: serverTree.calcCompleteEventCache(path), now: now ?? serverTime)
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

    /// A user write was made at `path`: the transactions it overlaps are aborted.
    func userWriteMade(at path: Path) {
        if let database { transactions.abort(overlapping: path, database: database) }
    }

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
