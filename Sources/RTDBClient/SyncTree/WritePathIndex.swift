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

    /// Whether a write made after `writeID` covers `path` (so a removed write there was hidden).
    func isCoveredByLaterWrite(_ path: Path, after writeID: Int) -> Bool {
        isCovered(path) { $0 > writeID }
    }

    /// Whether a write made before `writeID` covers `path` from above or at it.
    func isCoveredByEarlierWrite(_ path: Path, before writeID: Int) -> Bool {
        isCovered(path) { $0 < writeID }
    }

    /// Whether a write whose id passes `test` covers `path` or a location above it.
    private func isCovered(_ path: Path, by test: (Int) -> Bool) -> Bool {
        var location = root
        if location.coveringIDs.contains(where: test) { return true }
        for segment in path.segments {
            guard let next = location.children[CodeUnitString(segment)] else { return false }
            if next.coveringIDs.contains(where: test) { return true }
            location = next
        }
        return false
    }

    /// Whether any indexed visible write covers a path at or below `path`.
    func hasWrite(atOrBelow path: Path) -> Bool {
        var location = root
        for segment in path.segments {
            guard let next = location.children[CodeUnitString(segment)] else { return false }
            location = next
        }
        return location.coveredAtOrBelow > 0
    }
}
