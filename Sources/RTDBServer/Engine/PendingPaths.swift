import RTDBCore

/// Where the writes not yet published lie, so that a read finds the newest one it must see: a
/// write at, above or below the read's location.
///
/// A tree of the written paths, each level with the newest write made there and the newest made
/// there or below. Keys are compared by UTF-16 code units, as the tree's own keys are. Entries
/// are never taken out one by one: whoever asks compares the answer with what is published, and
/// the owner (``DurabilityPipeline``) empties or rebuilds the tree once most of it is published.
struct PendingPaths {
    private struct Branch {
        /// The newest write made at this location (0: none).
        var newestAt: UInt64 = 0
        /// The newest write made at this location or below it.
        var newestWithin: UInt64 = 0
        var children: [CodeUnitString: Branch] = [:]
    }

    private var root = Branch()
    /// How many locations were noted since the tree was last emptied.
    private(set) var noted = 0

    /// Notes a write `sequence` made at `path`.
    mutating func note(_ path: Path, sequence: UInt64) {
        Self.note(&root, path.segments[...], sequence)
        noted += 1
    }

    private static func note(_ branch: inout Branch, _ segments: ArraySlice<String>, _ sequence: UInt64) {
        branch.newestWithin = max(branch.newestWithin, sequence)
        guard let front = segments.first else {
            branch.newestAt = max(branch.newestAt, sequence)
            return
        }
        note(&branch.children[CodeUnitString(front), default: Branch()], segments.dropFirst(), sequence)
    }

    /// The newest write noted at `path`, at a location above it or below it (0: none).
    func newest(touching path: Path) -> UInt64 {
        var newest = root.newestAt
        var branch = root
        for segment in path.segments {
            guard let next = branch.children[CodeUnitString(segment)] else { return newest }
            branch = next
            newest = max(newest, branch.newestAt)
        }
        return max(newest, branch.newestWithin)
    }

    /// Forgets every write.
    mutating func removeAll() {
        root = Branch()
        noted = 0
    }
}
