import RTDBCore
import RTDBWire

/// What the sync tree asks of the connection: start and stop server listens.
protocol ListenProvider: AnyObject {
    /// Starts a listen; `hash` gives the view's cached data hash when sent; `onComplete` is called
    /// with the server's status and returns the events it causes.
    func startListening(
        _ query: QuerySpec, tag: Int?, hash: @escaping () -> String,
        onComplete: @escaping (WireStatus) -> [SyncEvent]
    ) -> [SyncEvent]
    func stopListening(_ query: QuerySpec, tag: Int?)
}

/// The client engine's core (docs/client-engine.md#the-sync-tree).
///
/// It holds views at locations, pending writes, and the server listens they need. Every
/// operation returns the events to raise.
final class SyncTree {
    var syncPoints = ImmutableTree<SyncPointBox>()
    /// The unacknowledged local writes layered over the server data (the Repo's `pendingWrites` is
    /// the durable queue of the same writes).
    let pendingWriteTree = WriteTree()
    private var tagToQuery: [Int: QuerySpec] = [:]
    private var queryToTag: [CodeUnitString: Int] = [:]
    private var nextTag = 1
    weak var listenProvider: (any ListenProvider)?
    /// The disk cache, when persistence is on (never for `.info`).
    var persistence: PersistenceManager?

    init(listenProvider: (any ListenProvider)? = nil) {
        self.listenProvider = listenProvider
    }

    /// Drops every view and pending write, without events or listen changes (the engine closed).
    func removeAll() {
        syncPoints = ImmutableTree()
        pendingWriteTree.removeAll()
        tagToQuery = [:]
        queryToTag = [:]
    }

    // MARK: - User writes

    func applyUserOverwrite(_ path: Path, _ node: Node, writeID: Int, visible: Bool = true) -> [SyncEvent] {
        pendingWriteTree.addOverwrite(path, node, writeID: writeID, visible: visible)
        guard visible, !syncPoints.isEmpty else { return [] }
        return applyToSyncPoints(.overwrite(source: .user, path: path, node: node))
    }

    /// Applies visible overwrites in order, as ``applyUserOverwrite(_:_:writeID:visible:)`` one
    /// by one would; with no view yet (a restart), the write tree takes them all at once.
    func applyUserOverwrites(_ writes: [(path: Path, node: Node, writeID: Int)]) -> [SyncEvent] {
        guard syncPoints.isEmpty else {
            return writes.flatMap { applyUserOverwrite($0.path, $0.node, writeID: $0.writeID) }
        }
        pendingWriteTree.addOverwrites(writes)
        return []
    }

    func applyUserMerge(_ path: Path, _ children: [(path: Path, node: Node)], writeID: Int) -> [SyncEvent] {
        pendingWriteTree.addMerge(path, children, writeID: writeID)
        if syncPoints.isEmpty { return [] }
        return applyToSyncPoints(.merge(source: .user, path: path, children: ImmutableTree(children: children)))
    }

    func ackUserWrite(_ writeID: Int, revert: Bool = false) -> [SyncEvent] {
        guard let write = pendingWriteTree.write(writeID), pendingWriteTree.removeWrite(writeID) else { return [] }
        var affected = ImmutableTree<Bool>()
        if write.snap != nil {
            affected = affected.setting(.root, true)
        } else {
            for child in write.children ?? [] { affected.set(child.path, true) }
        }
        if !revert, let persistence {
            persistence.applyUserWrite(write.path, write.snap.map { [(Path.root, $0)] } ?? write.children ?? [])
        }
        return applyToSyncPoints(.ackUserWrite(path: write.path, affected: affected, revert: revert))
    }

    // MARK: - Server data

    func applyServerOverwrite(_ path: Path, _ node: Node) -> [SyncEvent] {
        persistence?.overwriteServerCache(path, node)
        return applyToSyncPoints(.overwrite(source: .server, path: path, node: node))
    }

    func applyServerMerge(_ path: Path, _ children: [(path: Path, node: Node)]) -> [SyncEvent] {
        persistence?.mergeServerCache(path, children)
        return applyToSyncPoints(.merge(source: .server, path: path, children: ImmutableTree(children: children)))
    }

    func applyListenComplete(_ path: Path) -> [SyncEvent] {
        persistence?.setQueryComplete(.default(path))
        return applyToSyncPoints(.listenComplete(source: .server, path: path))
    }

    func applyTaggedQueryOverwrite(_ path: Path, _ node: Node, tag: Int) -> [SyncEvent] {
        guard let query = tagToQuery[tag], let relative = query.path.relativePath(to: path) else { return [] }
        persistence?.overwriteServerCache(path, node, query: relative.isEmpty ? query : .default(path))
        return applyTagged(query, .overwrite(source: .taggedQuery(query.queryIdentifier), path: relative, node: node))
    }

    func applyTaggedQueryMerge(_ path: Path, _ children: [(path: Path, node: Node)], tag: Int) -> [SyncEvent] {
        guard let query = tagToQuery[tag], let relative = query.path.relativePath(to: path) else { return [] }
        persistence?.mergeServerCache(path, children)
        let tree = ImmutableTree(children: children)
        return applyTagged(query, .merge(source: .taggedQuery(query.queryIdentifier), path: relative, children: tree))
    }

    func applyTaggedListenComplete(_ path: Path, tag: Int) -> [SyncEvent] {
        guard let query = tagToQuery[tag], let relative = query.path.relativePath(to: path) else { return [] }
        persistence?.setQueryComplete(query)
        return applyTagged(query, .listenComplete(source: .taggedQuery(query.queryIdentifier), path: relative))
    }

    private func applyTagged(_ query: QuerySpec, _ operation: Operation) -> [SyncEvent] {
        guard let syncPoint = syncPoints.get(query.path)?.point else { return [] }
        return syncPoint.apply(operation, writes: pendingWriteTree.childWrites(query.path), completeServerCache: nil)
    }

    // MARK: - Queries and tags

    func tag(for query: QuerySpec) -> Int? { queryToTag[CodeUnitString(query.description)] }

    func allocateTag() -> Int {
        defer { nextTag += 1 }
        return nextTag
    }

    func setTag(_ tag: Int, for query: QuerySpec) {
        queryToTag[CodeUnitString(query.description)] = tag
        tagToQuery[tag] = query
    }

    func clearTag(_ tag: Int, for query: QuerySpec) {
        queryToTag[CodeUnitString(query.description)] = nil
        tagToQuery[tag] = nil
    }

    /// Complete data at `path` from server caches and all writes (hidden ones too), for
    /// transactions and for resolving server values locally.
    func calcCompleteEventCache(_ path: Path, excluding: Set<Int> = []) -> Node {
        let serverCache = syncPoints.findOnPath(path) { relative, box in box.point.completeServerCache(relative) }
        return pendingWriteTree.calcCompleteEventCache(
            path, completeServerCache: serverCache, excluding: excluding, includeHidden: true) ?? .empty
    }

    /// The complete server data for `path`, if a view has it.
    func completeServerCache(_ path: Path) -> Node? {
        syncPoints.findOnPath(path) { relative, box in box.point.completeServerCache(relative) }
    }

    // MARK: - Applying operations

    func applyToSyncPoints(_ operation: Operation) -> [SyncEvent] {
        applyHelper(operation, syncPoints, serverCache: nil, writes: pendingWriteTree.childWrites(.root))
    }

    /// Applies an operation below the tree's root first, then at it.
    ///
    /// Descendants' events come before ancestors'. Above the operation's path only the branch
    /// towards it is visited.
    private func applyHelper(
        _ operation: Operation, _ tree: ImmutableTree<SyncPointBox>, serverCache: Node?, writes: WriteTreeRef
    ) -> [SyncEvent] {
        let syncPoint = tree.value?.point
        let serverCache = serverCache ?? syncPoint?.completeServerCache(.root)
        let branches: [(key: String, tree: ImmutableTree<SyncPointBox>)]
        if let front = operation.path.front {
            branches = tree.children[CodeUnitString(front)].map { [(front, $0)] } ?? []
        } else {
            branches = tree.sortedChildren
        }
        var events: [SyncEvent] = []
        for (childName, childTree) in branches {
            guard let childOperation = operation.forChild(childName) else { continue }
            events += applyHelper(
                childOperation, childTree, serverCache: serverCache?.child(ChildKey(childName)),
                writes: writes.child(childName))
        }
        if let syncPoint {
            events += syncPoint.apply(operation, writes: writes, completeServerCache: serverCache)
        }
        return events
    }
}

/// A reference to a `SyncPoint` in the value-typed path tree.
struct SyncPointBox {
    let point: SyncPoint
}
