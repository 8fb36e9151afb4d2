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
        if let item = ListenDelivery.initial(result, at: path, format: format, hash: hash) { send(item, to: outlet) }
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
    func deliver(_ change: TreeChange, to listen: Listen, before: Node, after: Node) {
        let delivery = ListenDelivery.changes(change, for: listen, before: before, after: after)
        if let result = delivery.result { listens.setLastResult(result, for: listen.key) }
        for item in delivery.items { send(item, to: listen.outlet) }
    }
}
