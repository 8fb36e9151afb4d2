import RTDBCore
import RTDBWire

extension Repo {
    typealias Completion = @Sendable (DatabaseError?) -> Void

    /// Converts a Swift value (and priority) to export JSON on the caller's thread.
    static func exportJSON(_ value: Any?, priority: Any?, at path: Path) throws(ValidationError) -> JSONValue {
        let json = try JSONValue(any: value, at: path)
        guard let priority else { return json }
        let priorityJSON = try JSONValue(any: priority, at: path)
        if case .object(var members) = json {
            members[".priority"] = priorityJSON
            return .object(members)
        }
        return [".value": json, ".priority": priorityJSON]
    }

    /// Converts update values to JSON on the caller's thread (Swift values are not Sendable).
    static func jsonChildren(_ values: [(String, Any?)], at path: Path) throws(ValidationError) -> [(String, JSONValue)]
    {
        var converted: [(String, JSONValue)] = []
        for (key, value) in values { converted.append((key, try JSONValue(any: value, at: path.child(key)))) }
        return converted
    }

    /// Validates update children on the queue: paths that do not overlap, writable data.
    static func updateNodes(_ children: [(String, JSONValue)], at path: Path) throws(ValidationError) -> [(
        path: Path, node: Node
    )] {
        try Validation.validateUpdatePaths(children.map { Path($0.0) }, at: path)
        var nodes: [(path: Path, node: Node)] = []
        for (key, json) in children { nodes.append((Path(key), try Repo.node(json, at: path.child(key)))) }
        return nodes
    }

    /// The node for a write target, or nil after reporting why it is invalid.
    func validatedNode(_ json: JSONValue, at path: Path, completion: Completion?) -> Node? {
        do throws(ValidationError) {
            return try Repo.node(json, at: path)
        } catch {
            fail(completion, error)
            return nil
        }
    }

    func fail(_ completion: Completion?, _ error: ValidationError) {
        logger.error("\(error)")
        guard let completion else { return }
        let databaseError = DatabaseError(code: error.wireStatus, message: error.description)
        callbackQueue.async { completion(databaseError) }
    }

    /// Validates a write target and its data; `.priority` may end the path.
    static func node(_ json: JSONValue, at path: Path) throws(ValidationError) -> Node {
        let target = path.back == ".priority" ? path.parent! : path
        try Validation.validateWritablePath(target)
        return try Node(json: json, at: target)
    }

    func set(_ path: Path, value: Any?, priority: Any?, completion: Completion?) {
        do throws(ValidationError) {
            set(path, json: try Repo.exportJSON(value, priority: priority, at: path), completion: completion)
        } catch {
            fail(completion, error)
        }
    }

    /// A user set: applied locally at once (server values resolved with the estimated server
    /// time), then sent; acknowledged or reverted when the server answers.
    func set(_ path: Path, json: JSONValue, completion: Completion?) {
        queue.async { [self] in
            guard let node = validatedNode(json, at: path, completion: completion) else { return }
            let writeID = nextWriteID
            nextWriteID += 1
            let existing = serverTree.calcCompleteEventCache(path)
            let resolved = node.resolvingServerValues(existing: existing, now: serverTime)
            raise(serverTree.applyUserOverwrite(path, resolved, writeID: writeID))
            if let database { abortTransactions(overlapping: path, database: database) }
            connection.put(
                action: "p", path: path, data: node.exportJSON, idempotencyKey: idempotencyKey(writeID)
            ) { [self] status, data in
                raise(serverTree.ackUserWrite(writeID, revert: status != "ok"))
                complete(completion, status: status, data: data)
            }
        }
    }

    func update(_ path: Path, values: [(String, Any?)], completion: Completion?) {
        let children: [(String, JSONValue)]
        do throws(ValidationError) {
            children = try Repo.jsonChildren(values, at: path)
        } catch {
            return fail(completion, error)
        }
        queue.async { [self] in
            let nodes: [(path: Path, node: Node)]
            do throws(ValidationError) {
                nodes = try Repo.updateNodes(children, at: path)
            } catch {
                return fail(completion, error)
            }
            if nodes.isEmpty { return complete(completion, status: "ok", data: "") }
            let writeID = nextWriteID
            nextWriteID += 1
            let now = serverTime
            let resolved = nodes.map { child in
                (
                    child.path,
                    child.node.resolvingServerValues(
                        existing: serverTree.calcCompleteEventCache(path.child(child.path)), now: now)
                )
            }
            raise(serverTree.applyUserMerge(path, resolved, writeID: writeID))
            if let database { abortTransactions(overlapping: path, database: database) }
            var data = JSONValue.Members()
            for (key, node) in zip(children.map(\.0), nodes.map(\.node)) { data[key] = node.exportJSON }
            connection.put(
                action: "m", path: path, data: .object(data), idempotencyKey: idempotencyKey(writeID)
            ) { [self] status, data in
                raise(serverTree.ackUserWrite(writeID, revert: status != "ok"))
                complete(completion, status: status, data: data)
            }
        }
    }

    // MARK: - onDisconnect

    func onDisconnectSet(_ path: Path, value: Any?, priority: Any?, completion: Completion?) {
        let json: JSONValue
        do throws(ValidationError) {
            json = try Repo.exportJSON(value, priority: priority, at: path)
        } catch {
            return fail(completion, error)
        }
        queue.async { [self] in
            guard let node = validatedNode(json, at: path, completion: completion) else { return }
            connection.onDisconnect(action: "o", path: path, data: json) { [self] status, data in
                if status == "ok" { onDisconnectTree.remember(path, node) }
                complete(completion, status: status, data: data)
            }
        }
    }

    func onDisconnectUpdate(_ path: Path, values: [(String, Any?)], completion: Completion?) {
        var converted: [(String, JSONValue)] = []
        do throws(ValidationError) {
            for (key, value) in values { converted.append((key, try JSONValue(any: value, at: path.child(key)))) }
        } catch {
            return fail(completion, error)
        }
        let children = converted
        queue.async { [self] in
            var nodes: [(Path, Node)] = []
            do throws(ValidationError) {
                try Validation.validateUpdatePaths(children.map { Path($0.0) }, at: path)
                for (key, json) in children {
                    nodes.append((path.child(key), try Repo.node(json, at: path.child(key))))
                }
            } catch {
                return fail(completion, error)
            }
            var data = JSONValue.Members()
            for (key, json) in children { data[key] = json }
            connection.onDisconnect(action: "om", path: path, data: .object(data)) { [self] status, data in
                if status == "ok" {
                    for (relative, node) in nodes { onDisconnectTree.remember(path.child(relative), node) }
                }
                complete(completion, status: status, data: data)
            }
        }
    }

    func onDisconnectCancel(_ path: Path, completion: Completion?) {
        queue.async { [self] in
            connection.onDisconnect(action: "oc", path: path, data: .null) { [self] status, data in
                if status == "ok" { onDisconnectTree.forget(path) }
                complete(completion, status: status, data: data)
            }
        }
    }

    /// The connection dropped: show this client's onDisconnect writes locally, as the server will
    /// apply them (rtdb-spec §2.11).
    func runOnDisconnectLocally() {
        let now = serverTime
        var events: [SyncEvent] = []
        for (path, node) in onDisconnectTree.overwrites() {
            let existing = serverTree.calcCompleteEventCache(path)
            events += serverTree.applyServerOverwrite(path, node.resolvingServerValues(existing: existing, now: now))
        }
        onDisconnectTree = SparseSnapshotTree()
        raise(events)
    }
}
