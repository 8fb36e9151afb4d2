import RTDBCore

/// A node with what is known about it: whether it is complete, and whether a query filtered it.
struct CacheNode {
    var node: Node
    var fullyInitialized: Bool
    var filtered: Bool

    func isCompleteForPath(_ path: Path) -> Bool {
        guard let front = path.front else { return fullyInitialized && !filtered }
        return isCompleteForChild(ChildKey(front))
    }

    func isCompleteForChild(_ key: ChildKey) -> Bool {
        (fullyInitialized && !filtered) || node.hasChild(key)
    }
}

/// A view's two caches: what the server said, and what events show (server data plus writes).
struct ViewCache {
    var eventCache: CacheNode
    var serverCache: CacheNode

    func updatingEventSnap(_ node: Node, complete: Bool, filtered: Bool) -> ViewCache {
        ViewCache(
            eventCache: CacheNode(node: node, fullyInitialized: complete, filtered: filtered), serverCache: serverCache)
    }

    func updatingServerSnap(_ node: Node, complete: Bool, filtered: Bool) -> ViewCache {
        ViewCache(
            eventCache: eventCache, serverCache: CacheNode(node: node, fullyInitialized: complete, filtered: filtered))
    }

    var completeEventSnap: Node? { eventCache.fullyInitialized ? eventCache.node : nil }
    var completeServerSnap: Node? { serverCache.fullyInitialized ? serverCache.node : nil }
}
