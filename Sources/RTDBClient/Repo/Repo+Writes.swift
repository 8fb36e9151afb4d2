import RTDBCore
import RTDBWire

extension Repo {
    typealias Completion = @Sendable (DatabaseError?) -> Void

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
        transactions.abort(overlapping: path)
    }

    // MARK: - onDisconnect

    func onDisconnectSet(_ path: Path, value: Any?, priority: Any?, completion: Completion?) {
        let json: JSONValue
        do throws(ValidationError) {
            json = try WriteInput.exportJSON(value, priority: priority, at: path)
        } catch {
            return fail(completion, error)
        }
        schedule { [self] in userWrites.onDisconnectSet(path, json: json, completion: completion) }
    }

    func onDisconnectUpdate(_ path: Path, values: [(String, Any?)], completion: Completion?) {
        let children: [(String, JSONValue)]
        do throws(ValidationError) {
            children = try WriteInput.jsonChildren(values, at: path)
        } catch {
            return fail(completion, error)
        }
        schedule { [self] in userWrites.onDisconnectUpdate(path, children: children, completion: completion) }
    }

    func onDisconnectCancel(_ path: Path, completion: Completion?) {
        schedule { [self] in userWrites.onDisconnectCancel(path, completion: completion) }
    }

    /// Sends an onDisconnect registration or cancel.
    func sendOnDisconnect(_ request: ClientRequest, onComplete: @escaping (WireStatus, JSONValue) -> Void) {
        connection.onDisconnect(request, onComplete: onComplete)
    }

    /// Asks the server whether this connection's onDisconnect writes would run now.
    func onDisconnectDryRun(onComplete: @escaping (WireStatus, JSONValue) -> Void) {
        connection.onDisconnectDryRun(onComplete: onComplete)
    }
}
