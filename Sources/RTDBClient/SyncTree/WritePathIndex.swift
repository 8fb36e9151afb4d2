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
        for path in Self.coveredPaths(write) {
            var location = root
            location.coveredAtOrBelow += 1
            for segment in path.segments {
                let key = CodeUnitString(segment)
                let next = location.children[key] ?? Location()
                location.children[key] = next
                next.coveredAtOrBelow += 1
                location = next
            }
            location.coveringIDs.append(write.writeID)
        }
    }

    mutating func remove(_ write: WriteRecord) {
        guard write.visible else { return }
        for path in Self.coveredPaths(write) {
            var location = root
            location.coveredAtOrBelow -= 1
            for segment in path.segments {
                let key = CodeUnitString(segment)
                guard let next = location.children[key] else { break }
                next.coveredAtOrBelow -= 1
                // Nothing covered at or below any more: the branch goes.
                if next.coveredAtOrBelow == 0 { location.children[key] = nil }
                location = next
            }
            location.coveringIDs.removeAll { $0 == write.writeID }
        }
    }

    /// What the other indexed writes are at `path`, for the write `writeID` removed from it.
    ///
    /// Whether a later one covers it (from above or at it), whether an earlier one does, and
    /// whether any covers a path at or below it: one walk down the path answers all three.
    func others(at path: Path, around writeID: Int) -> (coveredByLater: Bool, coveredByEarlier: Bool, atOrBelow: Bool) {
        var later = false
        var earlier = false
        func note(_ location: Location) {
            for id in location.coveringIDs {
                if id > writeID { later = true } else if id < writeID { earlier = true }
            }
        }
        var location = root
        note(location)
        for segment in path.segments {
            guard let next = location.children[CodeUnitString(segment)] else {
                return (later, earlier, false)
            }
            note(next)
            location = next
        }
        return (later, earlier, location.coveredAtOrBelow > 0)
    }
}
