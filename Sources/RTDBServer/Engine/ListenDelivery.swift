import RTDBCore
import RTDBWire

/// What a listen is sent, apart from the sending: its first data, and what a change did to the
/// data it watches, as protocol v5 pushes or Server-Sent Events.
///
/// Pure: given the listen and the trees before and after a change, it says what goes out and,
/// for a query with a range or limit (sent as differences), the result to remember.
struct ListenDelivery {
    /// The items to send, in order.
    var items: [OutboundItem] = []
    /// A query listen's new result, when it changed (the engine keeps it as its last).
    var result: Node?

    /// The first data of a listen on `path` whose query gives `result`, unless `hash` shows the
    /// client has it already.
    static func initial(_ result: Node, at path: Path, format: ListenFormat, hash: String?) -> OutboundItem? {
        switch format {
        case .websocket(let tag):
            // A client with nothing cached sends an empty hash, which no data but null has:
            // hashing a million children to learn that would cost seconds.
            let sameAsCached = hash.map { $0.isEmpty ? result.isEmpty : $0 == result.hashString } ?? false
            if sameAsCached { return nil }
            let text = WireMessage.dataPushText(path: path, tag: tag, sizeHint: result.sampledEstimatedSize) {
                result.writeExport(to: &$0)
            }
            return .wire(text)
        case .serverSentEvents(let export):
            return event("put", path: .root, data: export ? result.exportJSON : result.plainJSON())
        }
    }

    /// What `change` did to the data `listen` watches, the tree being `before` it and `after` it.
    static func changes(_ change: TreeChange, for listen: Listen, before: Node, after: Node) -> ListenDelivery {
        let listenPath = listen.path
        guard listen.query.loadsAllData else {
            let result = listen.query.filter(after.child(at: listenPath))
            guard result != listen.lastResult else { return ListenDelivery() }
            return ListenDelivery(items: difference(from: listen.lastResult, to: result, for: listen), result: result)
        }
        guard let relative = listenPath.relativePath(to: change.path) else {
            // The write is above the listen: send the listened location if it changed.
            let new = after.child(at: listenPath)
            guard new != before.child(at: listenPath) else { return ListenDelivery() }
            return ListenDelivery(items: [overwrite(new, at: listenPath, for: listen)])
        }
        switch change {
        case .set(let path, let node):
            return ListenDelivery(items: [overwrite(node, at: path, for: listen, relative: relative)])
        case .merge(let path, let children):
            switch listen.format {
            case .websocket(let tag):
                var data = JSONValue.Members()
                for (child, node) in children { data[CodeUnitString(child.relativeString)] = node.exportJSON }
                return ListenDelivery(items: [.wire(WireMessage.push(.merge(path: path, data: data, tag: tag)).text)])
            case .serverSentEvents(let export):
                guard children.allSatisfy({ $0.relative.count == 1 }) else {
                    return ListenDelivery(
                        items: children.map { child, node in
                            event("put", path: relative.child(child), data: export ? node.exportJSON : node.plainJSON())
                        })
                }
                var data = JSONValue.Members()
                for (child, node) in children {
                    data[CodeUnitString(child.relativeString)] = export ? node.exportJSON : node.plainJSON()
                }
                return ListenDelivery(items: [event("patch", path: relative, data: .object(data))])
            }
        }
    }

    private static func overwrite(_ node: Node, at path: Path, for listen: Listen, relative: Path = .root)
        -> OutboundItem
    {
        switch listen.format {
        case .websocket(let tag):
            return .wire(WireMessage.push(.data(path: path, data: node.exportJSON, tag: tag)).text)
        case .serverSentEvents(let export):
            return event("put", path: relative, data: export ? node.exportJSON : node.plainJSON())
        }
    }

    /// A query's result changed: the children that entered, left or changed.
    private static func difference(from old: Node, to new: Node, for listen: Listen) -> [OutboundItem] {
        if old.isEmpty || new.isEmpty { return [overwrite(new, at: listen.path, for: listen)] }
        var changes: [(key: ChildKey, value: JSONValue)] = []
        for (key, _) in old.children where !new.hasChild(key) { changes.append((key, .null)) }
        for (key, child) in new.children where old.child(key) != child { changes.append((key, child.exportJSON)) }
        changes.sort { $0.key < $1.key }
        var data = JSONValue.Members(minimumCapacity: changes.count)
        for change in changes { data[change.key.codeUnitString] = change.value }
        switch listen.format {
        case .websocket(let tag):
            return [.wire(WireMessage.push(.merge(path: listen.path, data: data, tag: tag)).text)]
        case .serverSentEvents(let export):
            if !export {
                for (key, _) in data { data[key] = new.child(ChildKey(key.string)).plainJSON() }
            }
            return [event("patch", path: .root, data: .object(data))]
        }
    }

    /// A Server-Sent Event of the REST streaming protocol: `put` or `patch` with its path and data.
    static func event(_ name: String, path: Path, data: JSONValue) -> OutboundItem {
        .event(name: name, data: JSONValue.object(["path": .string(path.description), "data": data]).jsonString)
    }
}
