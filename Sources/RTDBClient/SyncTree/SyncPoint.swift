import RTDBCore

/// The views at one location, by query identifier (at most one of them loads all data).
final class SyncPoint {
    /// Views by query identifier, told apart by code units (a bound may hold any string).
    private(set) var views: [CodeUnitString: View] = [:]
    /// Query identifiers in the order their views were made (the SDK iterates views that way).
    private var order: [CodeUnitString] = []

    var isEmpty: Bool { views.isEmpty }

    func apply(_ operation: Operation, writes: WriteTreeRef, completeServerCache: Node?) -> [SyncEvent] {
        if let queryID = operation.source.queryID {
            return views[CodeUnitString(queryID)]?.apply(
                operation, writes: writes, completeServerCache: completeServerCache) ?? []
        }
        var events: [SyncEvent] = []
        for view in order.compactMap({ views[$0] }) {
            events += view.apply(operation, writes: writes, completeServerCache: completeServerCache)
        }
        return events
    }

    /// The view for `query`, made (but not stored) from the given server data when absent.
    func view(for query: QuerySpec, writes: WriteTreeRef, serverCache: Node, serverCacheComplete: Bool) -> View {
        if let view = views[CodeUnitString(query.queryIdentifier)] { return view }
        var eventCache: Node
        var eventComplete = false
        if let complete = writes.calcCompleteEventCache(serverCacheComplete ? serverCache : nil) {
            eventCache = complete
            eventComplete = true
        } else if !serverCache.isLeaf {
            eventCache = writes.calcCompleteEventChildren(serverCache)
        } else {
            eventCache = .empty
        }
        let cache = ViewCache(
            eventCache: CacheNode(node: eventCache, fullyInitialized: eventComplete, filtered: false),
            serverCache: CacheNode(node: serverCache, fullyInitialized: serverCacheComplete, filtered: false))
        return View(query: query, initialCache: cache)
    }

    func addRegistration(
        _ registration: any EventRegistration, for query: QuerySpec, writes: WriteTreeRef, serverCache: Node,
        serverCacheComplete: Bool
    ) -> [SyncEvent] {
        let view = view(for: query, writes: writes, serverCache: serverCache, serverCacheComplete: serverCacheComplete)
        if views[CodeUnitString(query.queryIdentifier)] == nil {
            views[CodeUnitString(query.queryIdentifier)] = view
            order.append(CodeUnitString(query.queryIdentifier))
        }
        view.add(registration)
        return view.initialEvents(for: registration)
    }

    /// Removes a registration; returns the queries whose views went away and any cancel events.
    func removeRegistration(
        _ registration: (any EventRegistration)?, for query: QuerySpec, cancelError: DatabaseError?
    ) -> (removed: [QuerySpec], events: [SyncEvent]) {
        var removed: [QuerySpec] = []
        var events: [SyncEvent] = []
        let hadCompleteView = hasCompleteView
        let targets = query.queryIdentifier == "default" ? order : [CodeUnitString(query.queryIdentifier)]
        for key in targets {
            guard let view = views[key] else { continue }
            events += view.remove(registration, cancelError: cancelError)
            if view.isEmpty {
                views[key] = nil
                order.removeAll { $0 == key }
                if !view.query.loadsAllData { removed.append(view.query) }
            }
        }
        if hadCompleteView && !hasCompleteView { removed.append(.default(query.path)) }
        return (removed, events)
    }

    var queryViews: [View] { order.compactMap { views[$0] }.filter { !$0.query.loadsAllData } }

    func completeServerCache(_ path: Path) -> Node? {
        for view in order.compactMap({ views[$0] }) {
            if let cache = view.completeServerCache(path) { return cache }
        }
        return nil
    }

    func view(for query: QuerySpec) -> View? {
        query.loadsAllData ? completeView : views[CodeUnitString(query.queryIdentifier)]
    }

    func viewExists(for query: QuerySpec) -> Bool { view(for: query) != nil }

    var hasCompleteView: Bool { completeView != nil }

    var completeView: View? {
        order.lazy.compactMap { self.views[$0] }.first { $0.query.loadsAllData }
    }
}
