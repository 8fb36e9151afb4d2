import DequeModule
import RTDBCore

/// One pending user write: a set (or transaction) with `snap`, or an update with `children`.
struct WriteRecord {
    var writeID: Int
    var path: Path
    var snap: Node?
    var children: [(path: Path, node: Node)]?
    var visible: Bool

    func contains(_ path: Path) -> Bool {
        if snap != nil { return self.path.contains(path) }
        return children?.contains { self.path.child($0.path).contains(path) } ?? false
    }
}

/// Every pending user write, and the visible ones layered into one `CompoundWrite`
/// (docs/client-engine.md#the-write-tree).
final class WriteTree {
    private var visibleWrites = CompoundWrite.empty
    /// In write order; acknowledgements remove the oldest, so a deque (an array would move every
    /// later write on each one: quadratic for a long queue draining).
    private(set) var allWrites = Deque<WriteRecord>()
    /// Built at the first removal after ``writesMeet`` became true, not while writes pile up (a
    /// restart replays thousands before the first view needs them).
    private var index: WritePathIndex?
    /// Whether a visible write has met another since the last time none was visible.
    ///
    /// A write meets another when it is added at, above or below it. Until one has, removing a
    /// write takes its paths out of ``visibleWrites`` with no index at all (a draining queue of
    /// writes at distinct paths asks nothing else of its acknowledgements).
    private var writesMeet = false
    /// How many writes are visible.
    private var visibleCount: Int { allWrites.count - hiddenCount }
    private var lastWriteID = -1
    /// How many writes are hidden (transactions run without local events).
    private var hiddenCount = 0

    func childWrites(_ path: Path) -> WriteTreeRef { WriteTreeRef(path: path, tree: self) }

    func addOverwrite(_ path: Path, _ node: Node, writeID: Int, visible: Bool = true) {
        precondition(writeID > lastWriteID, "write ids must increase")
        let write = WriteRecord(writeID: writeID, path: path, snap: node, children: nil, visible: visible)
        allWrites.append(write)
        index?.insert(write)
        if visible {
            if visibleWrites.addWrite(path, node) { writesMeet = true }
        } else {
            hiddenCount += 1
        }
        lastWriteID = writeID
    }

    /// Adds overwrites in order, as ``addOverwrite(_:_:writeID:visible:)`` one by one would
    /// (visible ones): what a restart's replay of a long queue does.
    func addOverwrites(_ writes: [(path: Path, node: Node, writeID: Int)]) {
        allWrites.reserveCapacity(allWrites.count + writes.count)
        for (path, node, writeID) in writes {
            precondition(writeID > lastWriteID, "write ids must increase")
            let write = WriteRecord(writeID: writeID, path: path, snap: node, children: nil, visible: true)
            allWrites.append(write)
            index?.insert(write)
            lastWriteID = writeID
        }
        if visibleWrites.addWrites(writes.map { ($0.path, $0.node) }) { writesMeet = true }
    }

    func addMerge(_ path: Path, _ children: [(path: Path, node: Node)], writeID: Int) {
        precondition(writeID > lastWriteID, "write ids must increase")
        let write = WriteRecord(writeID: writeID, path: path, snap: nil, children: children, visible: true)
        allWrites.append(write)
        index?.insert(write)
        if visibleWrites.addWrites(path, children) { writesMeet = true }
        lastWriteID = writeID
    }

    /// Forgets every write (the engine closed).
    func removeAll() {
        visibleWrites = .empty
        allWrites = []
        index = nil
        hiddenCount = 0
        writesMeet = false
    }

    func write(_ writeID: Int) -> WriteRecord? {
        allWrites.first { $0.writeID == writeID }
    }

    /// Removes a write; returns whether it may have been visible (views must re-evaluate).
    func removeWrite(_ writeID: Int) -> Bool {
        guard let position = allWrites.firstIndex(where: { $0.writeID == writeID }) else { return false }
        guard writesMeet else { return removeAlone(at: position) }
        defer { if visibleCount == 0 { forgetMeetings() } }
        // Taken out, not copied: a second reference would make the removal below copy the whole
        // index (every write's paths) on each acknowledgement.
        var index = self.index.take() ?? WritePathIndex(allWrites)
        let removed = allWrites.remove(at: position)
        if !removed.visible { hiddenCount -= 1 }
        let paths = index.remove(removed)
        self.index = index
        guard removed.visible else { return false }
        // Path by path (a set has one, an update one per child): hidden by a later write there,
        // nothing changes; other writes at or below it, that part is layered again; else it
        // comes straight out. An earlier write above it had the removed data folded in: rebuild.
        var changed = false
        var rebuild = false
        var relayer: [Path] = []
        var remove: [Path] = []
        for (path, others) in paths {
            if others.coveredByLater { continue }
            changed = true
            if others.coveredByEarlier {
                rebuild = true
                break
            }
            if others.atOrBelow { relayer.append(path) } else { remove.append(path) }
        }
        guard changed else { return false }
        if rebuild {
            visibleWrites = WriteTree.layer(allWrites, at: .root) { $0.visible }
        } else {
            for path in remove { visibleWrites.removeWrite(path) }
            for path in relayer {
                visibleWrites.replaceSubtree(path, with: WriteTree.layer(allWrites, at: path) { $0.visible })
            }
        }
        return true
    }

    /// Removes the write at `position` while no visible write meets another: nothing else covers
    /// its paths or lies below them, so they come straight out.
    private func removeAlone(at position: Int) -> Bool {
        let removed = allWrites.remove(at: position)
        guard removed.visible else {
            hiddenCount -= 1
            return false
        }
        if removed.snap != nil {
            visibleWrites.removeWrite(removed.path)
            return true
        }
        // An update of no children changed nothing.
        let paths = WritePathIndex.coveredPaths(removed)
        for path in paths { visibleWrites.removeWrite(path) }
        return !paths.isEmpty
    }

    /// No visible write is left: the next ones start apart, and the index (of visible writes)
    /// has nothing to say until two meet.
    private func forgetMeetings() {
        writesMeet = false
        index = nil
    }

    func shadowingWrite(_ path: Path) -> Node? { visibleWrites.completeNode(path) }

    func calcCompleteEventCache(
        _ treePath: Path, completeServerCache: Node?, excluding excluded: Set<Int> = [], includeHidden: Bool = false
    ) -> Node? {
        // With nothing hidden or excluded the visible writes say it all, without a pass over every write.
        if excluded.isEmpty && (!includeHidden || hiddenCount == 0) {
            if let shadowing = visibleWrites.completeNode(treePath) { return shadowing }
            let merge = visibleWrites.childCompoundWrite(treePath)
            if merge.isEmpty { return completeServerCache }
            if completeServerCache == nil && !merge.hasCompleteWrite(.root) { return nil }
            return merge.apply(to: completeServerCache ?? .empty)
        }
        let merge = visibleWrites.childCompoundWrite(treePath)
        if !includeHidden && merge.isEmpty { return completeServerCache }
        if !includeHidden && completeServerCache == nil && !merge.hasCompleteWrite(.root) { return nil }
        let layered = WriteTree.layer(allWrites, at: treePath) { write in
            (write.visible || includeHidden) && !excluded.contains(write.writeID)
                && (write.path.contains(treePath) || treePath.contains(write.path))
        }
        return layered.apply(to: completeServerCache ?? .empty)
    }

    func calcCompleteEventChildren(_ treePath: Path, completeServerChildren: Node?) -> Node {
        var complete = Node.empty
        if let topLevel = visibleWrites.completeNode(treePath) {
            if !topLevel.isLeaf {
                for (key, child) in topLevel.children { complete = complete.updatingChild(key, with: child) }
            }
            return complete
        }
        let merge = visibleWrites.childCompoundWrite(treePath)
        if let serverChildren = completeServerChildren {
            for (key, child) in serverChildren.children {
                let node = merge.childCompoundWrite(Path(segments: [key.string])).apply(to: child)
                complete = complete.updatingChild(key, with: node)
            }
        }
        for named in merge.completeChildren { complete = complete.updatingChild(named.key, with: named.node) }
        return complete
    }

    func calcEventCacheAfterServerOverwrite(_ treePath: Path, childPath: Path, existingServerSnap: Node) -> Node? {
        let path = treePath.child(childPath)
        if visibleWrites.hasCompleteWrite(path) { return nil }
        let childMerge = visibleWrites.childCompoundWrite(path)
        if childMerge.isEmpty { return existingServerSnap.child(at: childPath) }
        return childMerge.apply(to: existingServerSnap.child(at: childPath))
    }

    func calcCompleteChild(_ treePath: Path, childKey: ChildKey, existingServerSnap: CacheNode) -> Node? {
        let path = treePath.child(Path(segments: [childKey.string]))
        if let shadowing = visibleWrites.completeNode(path) { return shadowing }
        guard existingServerSnap.isCompleteForChild(childKey) else { return nil }
        return visibleWrites.childCompoundWrite(path).apply(to: existingServerSnap.node.child(childKey))
    }

    /// Up to `count` children after `post` in index order (before it, when `reverse`).
    func calcIndexedSlice(
        _ treePath: Path, completeServerData: Node?, post: NamedNode, count: Int, reverse: Bool, index: Index
    ) -> [NamedNode] {
        let merge = visibleWrites.childCompoundWrite(treePath)
        let toIterate: Node
        if let shadowing = merge.completeNode(.root) {
            toIterate = shadowing
        } else if let completeServerData {
            toIterate = merge.apply(to: completeServerData)
        } else {
            return []
        }
        guard !toIterate.isEmpty, !toIterate.isLeaf else { return [] }
        let ordered = IndexedChildren(toIterate, index: index)
        return ordered.children(after: post, reverse: reverse).filter { index.compare($0, post) != 0 }.prefix(count)
            .map { $0 }
    }

    static func layer(_ writes: some Sequence<WriteRecord>, at root: Path, where include: (WriteRecord) -> Bool)
        -> CompoundWrite
    {
        var compound = CompoundWrite.empty
        for write in writes where include(write) {
            let parts = write.snap.map { [(path: Path.root, node: $0)] } ?? write.children ?? []
            for part in parts {
                let target = write.path.child(part.path)
                if let relative = root.relativePath(to: target) {
                    compound.addWrite(relative, part.node)
                } else if let relative = target.relativePath(to: root) {
                    compound.addWrite(.root, part.node.child(at: relative))
                }
            }
        }
        return compound
    }
}

/// A `WriteTree` seen from one path.
struct WriteTreeRef {
    let path: Path
    let tree: WriteTree

    func calcCompleteEventCache(_ completeServerCache: Node?, excluding: Set<Int> = [], includeHidden: Bool = false)
        -> Node?
    {
        tree.calcCompleteEventCache(
            path, completeServerCache: completeServerCache, excluding: excluding, includeHidden: includeHidden)
    }

    func calcCompleteEventChildren(_ serverChildren: Node?) -> Node {
        tree.calcCompleteEventChildren(path, completeServerChildren: serverChildren)
    }

    func calcEventCacheAfterServerOverwrite(_ childPath: Path, existingServerSnap: Node) -> Node? {
        tree.calcEventCacheAfterServerOverwrite(path, childPath: childPath, existingServerSnap: existingServerSnap)
    }

    func shadowingWrite(_ childPath: Path) -> Node? { tree.shadowingWrite(path.child(childPath)) }

    func calcIndexedSlice(completeServerData: Node?, post: NamedNode, count: Int, reverse: Bool, index: Index)
        -> [NamedNode]
    {
        tree.calcIndexedSlice(
            path, completeServerData: completeServerData, post: post, count: count, reverse: reverse, index: index)
    }

    func calcCompleteChild(_ key: ChildKey, existingServerCache: CacheNode) -> Node? {
        tree.calcCompleteChild(path, childKey: key, existingServerSnap: existingServerCache)
    }

    func child(_ key: String) -> WriteTreeRef { WriteTreeRef(path: path.child(Path(segments: [key])), tree: tree) }
}
