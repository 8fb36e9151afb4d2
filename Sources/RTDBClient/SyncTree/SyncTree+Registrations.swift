import RTDBCore
import RTDBWire

extension SyncTree {
    /// Adds a listener for `query`; returns its initial events and starts a server listen when no
    /// complete view at or above the location covers it (docs/client-engine.md#the-sync-tree).
    func addEventRegistration(_ registration: any EventRegistration, for query: QuerySpec) -> [SyncEvent] {
        let path = query.path
        var serverCache: Node?
        var foundAncestorDefaultView = false
        syncPoints.forEachOnPath(path) { relative, box in
            serverCache = serverCache ?? box.point.completeServerCache(relative)
            foundAncestorDefaultView = foundAncestorDefaultView || box.point.hasCompleteView
        }
        let syncPoint: SyncPoint
        if let existing = syncPoints.get(path)?.point {
            syncPoint = existing
        } else {
            syncPoint = SyncPoint()
            syncPoints.set(path, SyncPointBox(point: syncPoint))
        }
        var serverCacheComplete = serverCache != nil
        var server = serverCache ?? .empty
        let persisted = serverCacheComplete ? nil : persistence?.serverCache(for: query)
        if let persisted, persisted.complete {
            server = persisted.node
            serverCacheComplete = true
        } else if !serverCacheComplete {
            for (childName, childTree) in syncPoints.subtree(path).sortedChildren {
                if let complete = childTree.value?.point.completeServerCache(.root) {
                    server = server.updatingChild(ChildKey(childName), with: complete)
                }
            }
            // Children the disk cache knows to be complete fill in the rest.
            if let persisted, !persisted.node.isLeaf {
                for (key, child) in persisted.node.children where !server.hasChild(key) {
                    server = server.updatingChild(key, with: child)
                }
            }
        }
        persistence?.setQueryActive(query)
        let viewAlreadyExists = syncPoint.viewExists(for: query)
        if !viewAlreadyExists && !query.loadsAllData {
            let tag = allocateTag()
            setTag(tag, for: query)
        }
        var events = syncPoint.addRegistration(
            registration, for: query, writes: pendingWriteTree.childWrites(path), serverCache: server,
            serverCacheComplete: serverCacheComplete)
        if let persistence, !query.loadsAllData, let view = syncPoint.view(for: query) {
            // A filtered query's window, kept on disk to rebuild it offline after a restart.
            let eventCache = view.cache.eventCache.node
            persistence.setTrackedKeys(query, Set(eventCache.isLeaf ? [] : eventCache.children.map(\.key.string)))
            if view.keysObserver == nil {
                view.keysObserver = { [weak persistence] added, removed in
                    persistence?.updateTrackedKeys(query, added: added, removed: removed)
                }
            }
        }
        if !viewAlreadyExists && !foundAncestorDefaultView, let view = syncPoint.view(for: query) {
            events += setUpListener(query, view: view)
        }
        return events
    }

    /// Removes a listener, or all of them when nil.
    ///
    /// A default query removes it from every view at the location. With `cancelError`, cancel
    /// events are returned and no unlisten is sent.
    func removeEventRegistration(
        _ registration: (any EventRegistration)?, for query: QuerySpec, cancelError: DatabaseError? = nil
    ) -> [SyncEvent] {
        let path = query.path
        guard let syncPoint = syncPoints.get(path)?.point,
            query.queryIdentifier == "default" || syncPoint.viewExists(for: query)
        else { return [] }
        let (removed, events) = syncPoint.removeRegistration(registration, for: query, cancelError: cancelError)
        for removedQuery in removed { persistence?.setQueryInactive(removedQuery) }
        if syncPoint.isEmpty { syncPoints.set(path, nil) }
        let removingDefault = removed.contains { $0.loadsAllData }
        let covered = syncPoints.findOnPath(path) { _, box in box.point.hasCompleteView ? true : nil } ?? false
        if removingDefault && !covered {
            // Listens below were shadowed by the removed default listen: start them again first.
            for view in distinctViews(in: syncPoints.subtree(path)) {
                let newQuery = view.query
                _ = listenProvider?.startListening(
                    newQuery.forListening, tag: tag(for: newQuery), hash: { view.serverCache.hashString },
                    onComplete: listenCompletion(for: newQuery))
            }
        }
        if !covered && !removed.isEmpty && cancelError == nil {
            if removingDefault {
                listenProvider?.stopListening(query.forListening, tag: nil)
            } else {
                for removedQuery in removed {
                    listenProvider?.stopListening(removedQuery.forListening, tag: tag(for: removedQuery))
                }
            }
        }
        for removedQuery in removed where !removedQuery.loadsAllData {
            if let tag = tag(for: removedQuery) { clearTag(tag, for: removedQuery) }
        }
        return events
    }

    private func distinctViews(in tree: ImmutableTree<SyncPointBox>) -> [View] {
        tree.fold { _, box, children in
            if let point = box?.point, let complete = point.completeView { return [complete] }
            var views = box?.point.queryViews ?? []
            for child in children { views += child.result }
            return views
        }
    }

    private func setUpListener(_ query: QuerySpec, view: View) -> [SyncEvent] {
        let tag = tag(for: query)
        let events =
            listenProvider?.startListening(
                query.forListening, tag: tag, hash: { view.serverCache.hashString },
                onComplete: listenCompletion(for: query)) ?? []
        if tag == nil {
            // A default listen shadows every listen at or below it.
            let subtree = syncPoints.subtree(query.path)
            let toStop: [QuerySpec] = subtree.fold { relative, box, children in
                if !relative.isEmpty, let point = box?.point, let complete = point.completeView {
                    return [complete.query]
                }
                var queries = box?.point.queryViews.map(\.query) ?? []
                for child in children { queries += child.result }
                return queries
            }
            for stopped in toStop { listenProvider?.stopListening(stopped.forListening, tag: self.tag(for: stopped)) }
        }
        return events
    }

    /// What to do when the server answers a listen: mark it complete, or cancel its listeners.
    func listenCompletion(for query: QuerySpec) -> (WireStatus) -> [SyncEvent] {
        { [weak self] status in
            guard let self else { return [] }
            if status.isOK {
                if let tag = self.tag(for: query) { return self.applyTaggedListenComplete(query.path, tag: tag) }
                return self.applyListenComplete(query.path)
            }
            let error = DatabaseError(code: status, message: "\(status) at \(query.path)")
            return self.removeEventRegistration(nil, for: query, cancelError: error)
        }
    }
}
