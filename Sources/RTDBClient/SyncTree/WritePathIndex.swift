import RTDBCore

/// Where the visible pending writes are, so that removing one does not scan every other write.
///
/// Acknowledging each write of a long queue with a scan of the whole queue is quadratic: a queue
/// of thousands of offline writes took seconds to drain. The index is a tree of the covered
/// paths' segments, so each question is one walk down a path (one lookup per segment, keys by
/// code units), with no path made for each of its prefixes.
struct WritePathIndex {
    /// One location: the writes that cover it, and how many covered paths lie at or below it.
    private final class Location {
        var coveringIDs: [Int] = []
        var coveredAtOrBelow = 0
        var children: [CodeUnitString: Location] = [:]
    }

    private var root = Location()

    init() {}

    /// An index of these writes.
    init(_ writes: some Sequence<WriteRecord>) {
        for write in writes { insert(write) }
    }

    static func coveredPaths(_ write: WriteRecord) -> [Path] {
        if write.snap != nil { return [write.path] }
        return (write.children ?? []).map { write.path.child($0.path) }
    }

    mutating func insert(_ write: WriteRecord) {
        guard write.visible else { return }
        // A set covers its own path: no list of paths made for it (a restart indexes thousands).
        if write.snap != nil { return insert(write.writeID, at: write.path) }
        for path in Self.coveredPaths(write) { insert(write.writeID, at: path) }
    }

    private mutating func insert(_ writeID: Int, at path: Path) {
        var location = root
        location.coveredAtOrBelow += 1
        for segment in path.segments {
            let key = CodeUnitString(segment)
            // One lookup where the location exists (a queue's writes share their parents).
            let next: Location
            if let existing = location.children[key] {
                next = existing
            } else {
                next = Location()
                location.children[key] = next
            }
            next.coveredAtOrBelow += 1
            location = next
        }
        location.coveringIDs.append(writeID)
    }

    /// What the other indexed writes are at one of a removed write's paths.
    struct Others {
        /// A later write covers the path (from above or at it).
        var coveredByLater = false
        /// An earlier write covers it.
        var coveredByEarlier = false
        /// Some write covers a path at or below it.
        var atOrBelow = false
    }

    /// Removes `write`, and says for each path it covered what the other writes are there: one
    /// walk down each path does both (an acknowledgement asks this of every write of a queue).
    mutating func remove(_ write: WriteRecord) -> [(path: Path, others: Others)] {
        guard write.visible else { return [] }
        let walks = Self.coveredPaths(write).map { path in (path: path, walk: remove(write.writeID, at: path)) }
        // What lies at or below a path is read once every path of the write is out of the index.
        return walks.map { path, walk in
            var others = walk.others
            others.atOrBelow = (walk.end?.coveredAtOrBelow ?? 0) > 0
            return (path, others)
        }
    }

    /// Takes `writeID` out at `path`: which other writes cover the path, and where the walk ended
    /// (nil when the path was not indexed).
    private mutating func remove(_ writeID: Int, at path: Path) -> (others: Others, end: Location?) {
        var others = Others()
        func note(_ location: Location) {
            for id in location.coveringIDs {
                if id > writeID { others.coveredByLater = true } else if id < writeID { others.coveredByEarlier = true }
            }
        }
        var location = root
        location.coveredAtOrBelow -= 1
        note(location)
        for segment in path.segments {
            let key = CodeUnitString(segment)
            guard let next = location.children[key] else { return (others, nil) }
            next.coveredAtOrBelow -= 1
            // Nothing covered at or below any more: the branch goes (what it holds is this write's).
            if next.coveredAtOrBelow == 0 { location.children[key] = nil }
            note(next)
            location = next
        }
        location.coveringIDs.removeAll { $0 == writeID }
        return (others, location)
    }
}
