import RTDBCore

/// Where the visible pending writes are, so that removing one does not scan every other write.
///
/// Acknowledging each write of a long queue with a scan of the whole queue is quadratic: a queue
/// of thousands of offline writes took seconds to drain.
struct WritePathIndex {
    /// Write ids by each path a write covers (a set's path, or each path of an update).
    private var coveringIDs: [Path: [Int]] = [:]
    /// How many covered paths of visible writes lie at or below each path.
    private var coveredAtOrBelow: [Path: Int] = [:]

    init() {}

    /// An index of these writes.
    init(_ writes: some Sequence<WriteRecord>) {
        for write in writes { insert(write) }
    }

    private static func prefixes(of path: Path) -> [Path] {
        (0...path.count).map { Path(segments: Array(path.segments.prefix($0))) }
    }

    static func coveredPaths(_ write: WriteRecord) -> [Path] {
        if write.snap != nil { return [write.path] }
        return (write.children ?? []).map { write.path.child($0.path) }
    }

    mutating func insert(_ write: WriteRecord) {
        guard write.visible else { return }
        for path in Self.coveredPaths(write) {
            coveringIDs[path, default: []].append(write.writeID)
            for prefix in Self.prefixes(of: path) { coveredAtOrBelow[prefix, default: 0] += 1 }
        }
    }

    mutating func remove(_ write: WriteRecord) {
        guard write.visible else { return }
        for path in Self.coveredPaths(write) {
            coveringIDs[path]?.removeAll { $0 == write.writeID }
            if coveringIDs[path]?.isEmpty == true { coveringIDs[path] = nil }
            for prefix in Self.prefixes(of: path) {
                coveredAtOrBelow[prefix, default: 0] -= 1
                if coveredAtOrBelow[prefix] == 0 { coveredAtOrBelow[prefix] = nil }
            }
        }
    }

    /// Whether a write made after `writeID` covers `path` (so a removed write there was hidden).
    func isCoveredByLaterWrite(_ path: Path, after writeID: Int) -> Bool {
        Self.prefixes(of: path).contains { prefix in coveringIDs[prefix]?.contains { $0 > writeID } ?? false }
    }

    /// Whether a write made before `writeID` covers `path` from above or at it.
    func isCoveredByEarlierWrite(_ path: Path, before writeID: Int) -> Bool {
        Self.prefixes(of: path).contains { prefix in coveringIDs[prefix]?.contains { $0 < writeID } ?? false }
    }

    /// Whether any indexed visible write covers a path at or below `path`.
    func hasWrite(atOrBelow path: Path) -> Bool { (coveredAtOrBelow[path] ?? 0) > 0 }
}
