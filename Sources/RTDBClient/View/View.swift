import RTDBCore

/// One query's view of the data: its caches, its filter and its listeners
/// (docs/client-engine.md#views).
final class View {
    let query: QuerySpec
    let processor: ViewProcessor
    private(set) var cache: ViewCache
    private(set) var registrations: [any EventRegistration] = []
    /// Told which children entered and left the view after each operation (filtered queries with
    /// persistence keep their window on disk).
    var keysObserver: ((_ added: [String], _ removed: [String]) -> Void)?

    init(query: QuerySpec, initialCache: ViewCache) {
        self.query = query
        let indexed = IndexedFilter(index: query.params.index)
        let filter = makeFilter(for: query.params)
        processor = ViewProcessor(filter: filter)
        let serverNode = indexed.updateFullNode(.empty, initialCache.serverCache.node, accumulator: nil)
        let eventNode = filter.updateFullNode(.empty, initialCache.eventCache.node, accumulator: nil)
        cache = ViewCache(
            eventCache: CacheNode(
                node: eventNode, fullyInitialized: initialCache.eventCache.fullyInitialized,
                filtered: filter.filtersNodes),
            serverCache: CacheNode(
                node: serverNode, fullyInitialized: initialCache.serverCache.fullyInitialized,
                filtered: indexed.filtersNodes))
    }

    /// What the server has sent for this view.
    var serverCache: Node { cache.serverCache.node }

    /// Complete server data at `path` below the view, if this view has it.
    func completeServerCache(_ path: Path) -> Node? {
        guard let complete = cache.completeServerSnap else { return nil }
        if query.loadsAllData || path.front.map({ !complete.child($0).isEmpty }) == true {
            return complete.child(at: path)
        }
        return nil
    }

    var isEmpty: Bool { registrations.isEmpty }

    func add(_ registration: any EventRegistration) {
        registrations.append(registration)
    }

    /// Removes one registration (or all when nil); returns cancel events when `cancelError` is set.
    func remove(_ registration: (any EventRegistration)?, cancelError: DatabaseError?) -> [SyncEvent] {
        var events: [SyncEvent] = []
        if let cancelError {
            for existing in registrations where existing.hasCancelCallback {
                events.append(.cancel(registration: existing, error: cancelError, path: query.path))
            }
        }
        if let registration {
            if let position = registrations.firstIndex(where: { $0 === registration }) {
                registrations.remove(at: position)
            }
        } else {
            registrations = []
        }
        return events
    }

    func apply(_ operation: Operation, writes: WriteTreeRef, completeServerCache: Node?) -> [SyncEvent] {
        let childEvents =
            keysObserver != nil
            || registrations.contains { registration in
                EventType.allCases.contains { $0 != .value && registration.respondsTo($0) }
            }
        let result = processor.apply(
            operation, to: cache, writes: writes, completeCache: completeServerCache, childEvents: childEvents)
        cache = result.cache
        if let keysObserver {
            let added = result.changes.filter { $0.type == .childAdded }.compactMap { $0.childKey?.string }
            let removed = result.changes.filter { $0.type == .childRemoved }.compactMap { $0.childKey?.string }
            if !added.isEmpty || !removed.isEmpty { keysObserver(added, removed) }
        }
        return EventGenerator.events(
            for: result.changes, eventCache: cache.eventCache.node, registrations: registrations, query: query)
    }

    /// A new listener's first events: `child_added` for each known child, then `value` if complete.
    func initialEvents(for registration: any EventRegistration) -> [SyncEvent] {
        let eventSnap = cache.eventCache
        var changes: [Change] = []
        // Only a child_added listener needs one change per child (a value listener on 10,000
        // children should not pay for them).
        if !eventSnap.node.isLeaf, registration.respondsTo(.childAdded) {
            for (key, child) in eventSnap.node.children { changes.append(.added(key, child)) }
        }
        if eventSnap.fullyInitialized { changes.append(.value(eventSnap.node)) }
        return EventGenerator.events(
            for: changes, eventCache: eventSnap.node, registrations: [registration], query: query)
    }
}
