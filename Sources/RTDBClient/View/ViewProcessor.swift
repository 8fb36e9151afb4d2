import RTDBCore

/// Applies operations to a view's caches and collects the resulting child changes
/// (docs/client-engine.md#views).
struct ViewProcessor {
    let filter: any NodeFilter

    /// Applies `operation`; `childEvents` says whether anyone needs each child's change (a
    /// child listener, or the view's keys kept on disk), or only whether the view changed.
    func apply(
        _ operation: Operation, to oldCache: ViewCache, writes: WriteTreeRef, completeCache: Node?,
        childEvents: Bool = true
    ) -> (cache: ViewCache, changes: [Change]) {
        let accumulator = ChildChangeAccumulator(wantsEachChild: childEvents)
        let newCache: ViewCache
        switch operation {
        case .overwrite(let source, let path, let node):
            if source.fromUser {
                newCache = applyUserOverwrite(oldCache, path, node, writes, completeCache, accumulator)
            } else {
                let filterServer = source.tagged || (oldCache.serverCache.filtered && !path.isEmpty)
                newCache = applyServerOverwrite(oldCache, path, node, writes, completeCache, filterServer, accumulator)
            }
        case .merge(let source, let path, let children):
            if source.fromUser {
                newCache = applyUserMerge(oldCache, path, children, writes, completeCache, accumulator)
            } else {
                let filterServer = source.tagged || oldCache.serverCache.filtered
                newCache = applyServerMerge(oldCache, path, children, writes, completeCache, filterServer, accumulator)
            }
        case .ackUserWrite(let path, let affected, let revert):
            newCache =
                revert
                ? revertUserWrite(oldCache, path, writes, completeCache, accumulator)
                : ackUserWrite(oldCache, path, affected, writes, completeCache, accumulator)
        case .listenComplete(_, let path):
            newCache = listenComplete(oldCache, path, writes, accumulator)
        }
        var changes = accumulator.changes
        ViewProcessor.maybeAddValueEvent(
            old: oldCache, new: newCache, changed: accumulator.hasChanges, changes: &changes)
        return (newCache, changes)
    }

    private static func maybeAddValueEvent(old: ViewCache, new: ViewCache, changed: Bool, changes: inout [Change]) {
        let eventSnap = new.eventCache
        guard eventSnap.fullyInitialized else { return }
        let isLeafOrEmpty = eventSnap.node.isLeaf || eventSnap.node.isEmpty
        let oldComplete = old.completeEventSnap ?? .empty
        if changed || !old.eventCache.fullyInitialized || (isLeafOrEmpty && eventSnap.node != oldComplete)
            || eventSnap.node.priority != oldComplete.priority
        {
            changes.append(.value(eventSnap.node))
        }
    }

    func generateEventCacheAfterServerEvent(
        _ cache: ViewCache, _ changePath: Path, _ writes: WriteTreeRef, _ source: any CompleteChildSource,
        _ accumulator: ChildChangeAccumulator
    ) -> ViewCache {
        let oldEventSnap = cache.eventCache
        if writes.shadowingWrite(changePath) != nil { return cache }
        var newEventNode: Node
        if changePath.isEmpty {
            if cache.serverCache.filtered {
                let serverNode = cache.completeServerSnap ?? .empty
                let completeChildren = serverNode.isLeaf ? Node.empty : serverNode
                let eventChildren = writes.calcCompleteEventChildren(completeChildren)
                newEventNode = filter.updateFullNode(cache.eventCache.node, eventChildren, accumulator: accumulator)
            } else {
                let complete = writes.calcCompleteEventCache(cache.completeServerSnap) ?? .empty
                newEventNode = filter.updateFullNode(cache.eventCache.node, complete, accumulator: accumulator)
            }
        } else {
            // Not the root: that case was handled above.
            let childKey = ChildKey(changePath.front!)
            if childKey.isPriorityKey {
                let updated = writes.calcEventCacheAfterServerOverwrite(
                    changePath, existingServerSnap: cache.serverCache.node)
                newEventNode = updated.map { filter.updatePriority(oldEventSnap.node, $0) } ?? oldEventSnap.node
            } else {
                let childChangePath = changePath.popFront
                let newChild: Node?
                if oldEventSnap.isCompleteForChild(childKey) {
                    let update = writes.calcEventCacheAfterServerOverwrite(
                        changePath, existingServerSnap: cache.serverCache.node)
                    newChild =
                        update.map { oldEventSnap.node.child(childKey).updating(at: childChangePath, with: $0) }
                        ?? oldEventSnap.node.child(childKey)
                } else {
                    newChild = writes.calcCompleteChild(childKey, existingServerCache: cache.serverCache)
                }
                if let newChild {
                    newEventNode = filter.updateChild(
                        oldEventSnap.node, key: childKey, newChild: newChild, affectedPath: childChangePath,
                        source: source, accumulator: accumulator)
                } else {
                    newEventNode = oldEventSnap.node
                }
            }
        }
        return cache.updatingEventSnap(
            newEventNode, complete: oldEventSnap.fullyInitialized || changePath.isEmpty, filtered: filter.filtersNodes)
    }

    func applyServerOverwrite(
        _ oldCache: ViewCache, _ changePath: Path, _ changedSnap: Node, _ writes: WriteTreeRef, _ completeCache: Node?,
        _ filterServer: Bool, _ accumulator: ChildChangeAccumulator
    ) -> ViewCache {
        let oldServer = oldCache.serverCache
        let serverFilter: any NodeFilter = filterServer ? filter : filter.indexedFilter
        let newServerNode: Node
        if changePath.isEmpty {
            newServerNode = serverFilter.updateFullNode(oldServer.node, changedSnap, accumulator: nil)
        } else if serverFilter.filtersNodes && !oldServer.filtered {
            let updated = oldServer.node.updating(at: changePath, with: changedSnap)
            newServerNode = serverFilter.updateFullNode(oldServer.node, updated, accumulator: nil)
        } else {
            // Not the root: that case was handled above.
            let childKey = ChildKey(changePath.front!)
            if !oldServer.isCompleteForPath(changePath) && changePath.count > 1 {
                return oldCache  // an update meant for other listeners
            }
            let childChangePath = changePath.popFront
            let newChild = oldServer.node.child(childKey).updating(at: childChangePath, with: changedSnap)
            if childKey.isPriorityKey {
                newServerNode = serverFilter.updatePriority(oldServer.node, newChild)
            } else {
                newServerNode = serverFilter.updateChild(
                    oldServer.node, key: childKey, newChild: newChild, affectedPath: childChangePath,
                    source: NoCompleteChildSource(), accumulator: nil)
            }
        }
        let newCache = oldCache.updatingServerSnap(
            newServerNode, complete: oldServer.fullyInitialized || changePath.isEmpty,
            filtered: serverFilter.filtersNodes)
        let source = WriteTreeCompleteChildSource(
            writes: writes, viewCache: newCache, completeServerCache: completeCache)
        return generateEventCacheAfterServerEvent(newCache, changePath, writes, source, accumulator)
    }

    func applyUserOverwrite(
        _ oldCache: ViewCache, _ changePath: Path, _ changedSnap: Node, _ writes: WriteTreeRef, _ completeCache: Node?,
        _ accumulator: ChildChangeAccumulator
    ) -> ViewCache {
        let oldEventSnap = oldCache.eventCache
        let source = WriteTreeCompleteChildSource(
            writes: writes, viewCache: oldCache, completeServerCache: completeCache)
        if changePath.isEmpty {
            let newNode = filter.updateFullNode(oldEventSnap.node, changedSnap, accumulator: accumulator)
            return oldCache.updatingEventSnap(newNode, complete: true, filtered: filter.filtersNodes)
        }
        // Not the root: that case was handled above.
        let childKey = ChildKey(changePath.front!)
        if childKey.isPriorityKey {
            let newNode = filter.updatePriority(oldEventSnap.node, changedSnap)
            return oldCache.updatingEventSnap(
                newNode, complete: oldEventSnap.fullyInitialized, filtered: oldEventSnap.filtered)
        }
        let childChangePath = changePath.popFront
        let oldChild = oldEventSnap.node.child(childKey)
        let newChild: Node
        if childChangePath.isEmpty {
            newChild = changedSnap
        } else if let childNode = source.completeChild(childKey) {
            if childChangePath.isPriorityPath, childNode.child(at: childChangePath.writeTarget).isEmpty {
                newChild = childNode  // a priority on an empty node: the server will send it if it exists
            } else {
                newChild = childNode.updating(at: childChangePath, with: changedSnap)
            }
        } else {
            newChild = .empty
        }
        if oldChild == newChild { return oldCache }
        let newNode = filter.updateChild(
            oldEventSnap.node, key: childKey, newChild: newChild, affectedPath: childChangePath, source: source,
            accumulator: accumulator)
        return oldCache.updatingEventSnap(
            newNode, complete: oldEventSnap.fullyInitialized, filtered: filter.filtersNodes)
    }
}
