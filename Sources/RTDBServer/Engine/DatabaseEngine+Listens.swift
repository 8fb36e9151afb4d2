import OrderedCollections
import RTDBCore
import RTDBRules
import RTDBWire

extension DatabaseEngine {
    /// Registers a listen and sends its initial data (unless `hash` shows the client has it), if
    /// the read rules let `auth` read `path`.
    ///
    /// The initial data is the stored tree's, and the registration happens in the same step, so
    /// no published update is lost or duplicated between them. Callers wait first for the writes
    /// the listen must see (``waitForWrites(before:)``). A listen with the same outlet, path and query
    /// replaces the previous one.
    func addListen(outlet: Outlet, path: Path, query: QueryParams, format: ListenFormat, hash: String?, auth: RuleAuth)
        throws(WireError)
    {
        try authorizeRead(path, auth: auth, operation: .listen)
        let node = data.served.child(at: path)
        let result = query.loadsAllData ? node : query.filter(node)
        let key = Listen.Key(outlet: outlet.id, path: path, queryIdentifier: query.queryIdentifier)
        listens.insert(
            Listen(
                key: key, outlet: outlet, path: path, query: query, format: format, auth: auth, lastResult: result))
        switch format {
        case .websocket(let tag):
            // A client with nothing cached sends an empty hash, which no data but null has:
            // hashing a million children to learn that would cost seconds.
            let sameAsCached = hash.map { $0.isEmpty ? result.isEmpty : $0 == result.hashString } ?? false
            if !sameAsCached {
                let text = WireMessage.dataPushText(path: path, tag: tag, sizeHint: result.sampledEstimatedSize) {
                    result.writeExport(to: &$0)
                }
                send(.wire(text), to: outlet)
            }
        case .serverSentEvents(let export):
            send(
                DatabaseEngine.sseEvent("put", path: .root, data: export ? result.exportJSON : result.plainJSON()),
                to: outlet)
        }
    }

    /// Removes a listen.
    func removeListen(outlet: Outlet, path: Path, query: QueryParams) {
        listens.remove(Listen.Key(outlet: outlet.id, path: path, queryIdentifier: query.queryIdentifier))
    }

    /// Removes every listen of an outlet.
    public func removeListens(of outlet: Outlet) {
        listens.removeAll(outlet: outlet.id)
    }

    /// Sends `listen` what `change` did to its data (the tree `before` it and `after` it).
    func deliver(_ change: TreeChange, to listen: Listen, before oldRoot: Node, after root: Node) {
        let listenPath = listen.path
        guard listen.query.loadsAllData else {
            let result = listen.query.filter(root.child(at: listenPath))
            guard result != listen.lastResult else { return }
            listens.setLastResult(result, for: listen.key)
            sendDifference(from: listen.lastResult, to: result, for: listen)
            return
        }
        guard let relative = listenPath.relativePath(to: change.path) else {
            // The write is above the listen: send the listened location if it changed.
            let new = root.child(at: listenPath)
            guard new != oldRoot.child(at: listenPath) else { return }
            sendOverwrite(new, at: listenPath, for: listen)
            return
        }
        switch change {
        case .set(let path, let node):
            sendOverwrite(node, at: path, for: listen, relative: relative)
        case .merge(let path, let children):
            switch listen.format {
            case .websocket(let tag):
                var data = JSONValue.Members()
                for (child, node) in children { data[CodeUnitString(child.relativeString)] = node.exportJSON }
                send(.wire(WireMessage.push(.merge(path: path, data: data, tag: tag)).text), to: listen.outlet)
            case .serverSentEvents(let export):
                if children.allSatisfy({ $0.relative.count == 1 }) {
                    var data = JSONValue.Members()
                    for (child, node) in children {
                        data[CodeUnitString(child.relativeString)] = export ? node.exportJSON : node.plainJSON()
                    }
                    send(DatabaseEngine.sseEvent("patch", path: relative, data: .object(data)), to: listen.outlet)
                } else {
                    for (child, node) in children {
                        let data = export ? node.exportJSON : node.plainJSON()
                        send(DatabaseEngine.sseEvent("put", path: relative.child(child), data: data), to: listen.outlet)
                    }
                }
            }
        }
    }

    private func sendOverwrite(_ node: Node, at path: Path, for listen: Listen, relative: Path = .root) {
        switch listen.format {
        case .websocket(let tag):
            send(.wire(WireMessage.push(.data(path: path, data: node.exportJSON, tag: tag)).text), to: listen.outlet)
        case .serverSentEvents(let export):
            let data = export ? node.exportJSON : node.plainJSON()
            send(DatabaseEngine.sseEvent("put", path: relative, data: data), to: listen.outlet)
        }
    }

    /// A query's result changed: send the children that entered, left or changed.
    private func sendDifference(from old: Node, to new: Node, for listen: Listen) {
        if old.isEmpty || new.isEmpty {
            sendOverwrite(new, at: listen.path, for: listen)
            return
        }
        var changes: [(key: ChildKey, value: JSONValue)] = []
        for (key, _) in old.children where !new.hasChild(key) { changes.append((key, .null)) }
        for (key, child) in new.children where old.child(key) != child { changes.append((key, child.exportJSON)) }
        changes.sort { $0.key < $1.key }
        var data = JSONValue.Members(minimumCapacity: changes.count)
        for change in changes { data[change.key.codeUnitString] = change.value }
        switch listen.format {
        case .websocket(let tag):
            send(.wire(WireMessage.push(.merge(path: listen.path, data: data, tag: tag)).text), to: listen.outlet)
        case .serverSentEvents(let export):
            if !export {
                for (key, _) in data { data[key] = new.child(ChildKey(key.string)).plainJSON() }
            }
            send(DatabaseEngine.sseEvent("patch", path: .root, data: .object(data)), to: listen.outlet)
        }
    }

    static func sseEvent(_ name: String, path: Path, data: JSONValue) -> OutboundItem {
        .event(name: name, data: JSONValue.object(["path": .string(path.description), "data": data]).jsonString)
    }
}
