import Testing

@testable import RTDBCore

/// Writes made together leave the node that writing them one by one leaves.
@Suite struct NodeBatchTests {
    /// Random batches on random trees: paths one to three levels deep over few keys (so writes
    /// land inside, above and beside each other), removals, leaves turned into children and back,
    /// priorities, nodes emptied, and wide nodes where the batch's own way is taken.
    @Test func aBatchLeavesWhatOneByOneLeaves() {
        var random = SeededRandom(seed: 11_27_2026)
        func key(_ width: Int) -> String { "k\(Int.random(in: 0..<width, using: &random))" }
        func value(_ depth: Int) -> Node {
            switch Int.random(in: 0..<6, using: &random) {
            case 0: return .empty
            case 1: return Node(.number(.int(Int64(Int.random(in: 0..<100, using: &random)))))
            case 2 where depth < 2:
                var node = Node.empty
                for _ in 0..<Int.random(in: 1...3, using: &random) {
                    node = node.updatingChild(ChildKey(key(4)), with: value(depth + 1))
                }
                return node
            case 3: return Node(.string("s"), priority: .number(1))
            default: return Node(.bool(true))
            }
        }
        var batched = 0
        for round in 0..<600 {
            let width = round % 2 == 0 ? 40 : 4
            // A third of the trees under one key, as a presence tree is under `users`.
            let prefix = round % 3 == 0 ? ["users"] : []
            var tree = Node.empty
            for _ in 0..<(width * 2) {
                tree = tree.updating(at: Path(segments: prefix + [key(width), key(4)]), with: value(1))
            }
            if round % 5 == 0 { tree = tree.withPriority(.string("p")) }
            var writes: [(path: Path, node: Node)] = []
            for _ in 0..<Int.random(in: 1...30, using: &random) {
                var segments = prefix + [key(width)]
                for _ in 0..<Int.random(in: 0...2, using: &random) { segments.append(key(4)) }
                if Int.random(in: 0..<40, using: &random) == 0 { segments = Array(segments.prefix(prefix.count)) }
                if Int.random(in: 0..<60, using: &random) == 0 { segments.append(".priority") }
                writes.append((Path(segments: segments), value(segments.count)))
            }
            let oneByOne = writes.reduce(tree) { $0.updating(at: $1.path, with: $1.node) }
            let together = tree.updating(batch: writes)
            #expect(together == oneByOne, "round \(round): \(writes.map { "\($0.path)=\($0.node)" })")
            #expect(together.priority == oneByOne.priority, "round \(round)")
            if width == 40 { batched += 1 }
        }
        #expect(batched > 100)
    }

    /// A node whose children all go, one by one, loses its priority on the way, even when a
    /// later write gives it a child again.
    @Test func aNodeEmptiedOnTheWayLosesItsPriority() throws {
        let keys = (0..<20).map { "k\($0)" }
        var tree = Node.empty
        for key in keys { tree = tree.updatingChild(ChildKey(key), with: Node(.bool(true))) }
        tree = tree.withPriority(.string("p"))
        let writes =
            keys.map { (path: Path($0), node: Node.empty) } + [(path: Path("k3"), node: Node(.number(.int(1))))]
        let oneByOne = writes.reduce(tree) { $0.updating(at: $1.path, with: $1.node) }
        #expect(oneByOne.priority == nil)
        #expect(tree.updating(batch: writes) == oneByOne)
        #expect(tree.updating(batch: writes).priority == nil)
    }

    /// The map's own pass: the nodes of keys it holds transformed, the keys it lacks named.
    @Test func updatingExistingTransformsTheKeysItHolds() {
        let map = ChildrenMap((0..<500).map { (ChildKey("k\($0)"), Node(.number(.int(Int64($0))))) })
        let keys = [3, 77, 78, 250, 499, 600, 601].map { ChildKey("k\($0)") }.sorted()
        var seen: [ChildKey] = []
        let (updated, missing) = map.updatingExisting(keys[...]) { key, node in
            seen.append(key)
            return Node(.bool(node.leafValue != nil))
        }
        var expected = map
        for key in keys where map[key] != nil { expected = expected.inserting(Node(.bool(true)), at: key) }
        #expect(updated == expected)
        #expect(updated.count == 500)
        #expect(Set(missing) == [ChildKey("k600"), ChildKey("k601")])
        #expect(Set(seen) == Set(keys.filter { map[$0] != nil }))
        #expect(updated[ChildKey("k4")] == Node(.number(.int(4))))
    }
}
