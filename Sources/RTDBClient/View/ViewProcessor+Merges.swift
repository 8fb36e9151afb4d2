import RTDBCore

extension ViewProcessor {
    func applyUserMerge(
        _ cache: ViewCache, _ path: Path, _ children: ImmutableTree<Node>, _ writes: WriteTreeRef,
        _ completeCache: Node?, _ accumulator: ChildChangeAccumulator
    ) -> ViewCache {
        // Children already in view first, so that a limited window has room for newcomers after.
        var current = cache
        var entries: [(Path, Node)] = []
        // A merge's values sit below its path, so every write path here has a first key.
        children.visitValues { relative, node in entries.append((path.child(relative), node)) }
        for (writePath, node) in entries where cache.eventCache.isCompleteForChild(ChildKey(writePath.front!)) {
            current = applyUserOverwrite(current, writePath, node, writes, completeCache, accumulator)
        }
        for (writePath, node) in entries where !cache.eventCache.isCompleteForChild(ChildKey(writePath.front!)) {
            current = applyUserOverwrite(current, writePath, node, writes, completeCache, accumulator)
        }
        return current
    }

    private static func applyMerge(_ node: Node, _ merge: ImmutableTree<Node>) -> Node {
        var result = node
        merge.visitValues { relative, child in result = result.updating(at: relative, with: child) }
        return result
    }

    func applyServerMerge(
        _ cache: ViewCache, _ path: Path, _ children: ImmutableTree<Node>, _ writes: WriteTreeRef,
        _ completeCache: Node?, _ filterServer: Bool, _ accumulator: ChildChangeAccumulator
    ) -> ViewCache {
        // Without a cache yet, this merge was meant for an earlier listen here: wait for full data.
        if cache.serverCache.node.isEmpty && !cache.serverCache.fullyInitialized { return cache }
        var current = cache
        let mergeTree = path.isEmpty ? children : ImmutableTree<Node>().settingTree(path, children)
        let serverNode = cache.serverCache.node
        // The children the server had first, then the new ones, each in key order; sorted and
        // looked up once (a burst merges ten thousand children into a list of a million).
        var known: [(key: String, tree: ImmutableTree<Node>, child: Node)] = []
        var unknown: [(key: String, tree: ImmutableTree<Node>)] = []
        for (key, childTree) in mergeTree.sortedChildren {
            let child = serverNode.child(ChildKey(key))
            if child.isEmpty { unknown.append((key, childTree)) } else { known.append((key, childTree, child)) }
        }
        for (key, childTree, child) in known {
            let newChild = ViewProcessor.applyMerge(child, childTree)
            current = applyServerOverwrite(
                current, Path(segments: [key]), newChild, writes, completeCache, filterServer, accumulator)
        }
        for (key, childTree) in unknown {
            let unknownDeepMerge = !cache.serverCache.isCompleteForChild(ChildKey(key)) && childTree.value == nil
            if unknownDeepMerge { continue }
            let newChild = ViewProcessor.applyMerge(.empty, childTree)
            current = applyServerOverwrite(
                current, Path(segments: [key]), newChild, writes, completeCache, filterServer, accumulator)
        }
        return current
    }

    func ackUserWrite(
        _ cache: ViewCache, _ ackPath: Path, _ affected: ImmutableTree<Bool>, _ writes: WriteTreeRef,
        _ completeCache: Node?, _ accumulator: ChildChangeAccumulator
    ) -> ViewCache {
        if writes.shadowingWrite(ackPath) != nil { return cache }
        let filterServer = cache.serverCache.filtered
        let serverCache = cache.serverCache
        if affected.value != nil {
            // An overwrite: re-apply what the server cache holds, now that nothing shadows it.
            if (ackPath.isEmpty && serverCache.fullyInitialized) || serverCache.isCompleteForPath(ackPath) {
                return applyServerOverwrite(
                    cache, ackPath, serverCache.node.child(at: ackPath), writes, completeCache, filterServer,
                    accumulator)
            }
            if ackPath.isEmpty {
                var changed = ImmutableTree<Node>()
                for (key, child) in serverCache.node.children {
                    changed.setTree(Path(segments: [key.string]), ImmutableTree(child))
                }
                return applyServerMerge(cache, ackPath, changed, writes, completeCache, filterServer, accumulator)
            }
            return cache
        }
        var changed = ImmutableTree<Node>()
        affected.visitValues { mergePath, _ in
            let serverPath = ackPath.child(mergePath)
            if serverCache.isCompleteForPath(serverPath) {
                changed.setTree(mergePath, ImmutableTree(serverCache.node.child(at: serverPath)))
            }
        }
        return applyServerMerge(cache, ackPath, changed, writes, completeCache, filterServer, accumulator)
    }

    func listenComplete(
        _ cache: ViewCache, _ path: Path, _ writes: WriteTreeRef, _ accumulator: ChildChangeAccumulator
    ) -> ViewCache {
        let oldServer = cache.serverCache
        let newCache = cache.updatingServerSnap(
            oldServer.node, complete: oldServer.fullyInitialized || path.isEmpty, filtered: oldServer.filtered)
        return generateEventCacheAfterServerEvent(newCache, path, writes, NoCompleteChildSource(), accumulator)
    }

    func revertUserWrite(
        _ cache: ViewCache, _ path: Path, _ writes: WriteTreeRef, _ completeServerCache: Node?,
        _ accumulator: ChildChangeAccumulator
    ) -> ViewCache {
        if writes.shadowingWrite(path) != nil { return cache }
        let source = WriteTreeCompleteChildSource(
            writes: writes, viewCache: cache, completeServerCache: completeServerCache)
        let oldEventNode = cache.eventCache.node
        var newEventNode: Node
        if path.isEmpty || path.front == ".priority" {
            let newNode: Node
            if cache.serverCache.fullyInitialized {
                newNode = writes.calcCompleteEventCache(cache.completeServerSnap) ?? .empty
            } else {
                newNode = writes.calcCompleteEventChildren(cache.serverCache.node)
            }
            newEventNode = filter.updateFullNode(oldEventNode, newNode, accumulator: accumulator)
        } else {
            // Not the root: that case was handled above.
            let childKey = ChildKey(path.front!)
            var newChild = writes.calcCompleteChild(childKey, existingServerCache: cache.serverCache)
            if newChild == nil && cache.serverCache.isCompleteForChild(childKey) {
                newChild = oldEventNode.child(childKey)
            }
            if let newChild {
                newEventNode = filter.updateChild(
                    oldEventNode, key: childKey, newChild: newChild, affectedPath: path.popFront, source: source,
                    accumulator: accumulator)
            } else if cache.eventCache.node.hasChild(childKey) {
                newEventNode = filter.updateChild(
                    oldEventNode, key: childKey, newChild: .empty, affectedPath: path.popFront, source: source,
                    accumulator: accumulator)
            } else {
                newEventNode = oldEventNode
            }
            if newEventNode.isEmpty && cache.serverCache.fullyInitialized {
                // All child writes may be reverted: the old event might have been a leaf.
                if let complete = writes.calcCompleteEventCache(cache.completeServerSnap), complete.isLeaf {
                    newEventNode = filter.updateFullNode(newEventNode, complete, accumulator: accumulator)
                }
            }
        }
        let complete = cache.serverCache.fullyInitialized || writes.shadowingWrite(.root) != nil
        return cache.updatingEventSnap(newEventNode, complete: complete, filtered: filter.filtersNodes)
    }
}
