import RTDBCore
import Testing

@testable import RTDBCore

@Suite struct ChildrenMapTests {
    @Test func matchesAReferenceModelUnderRandomEdits() {
        var random = SeededRandom(seed: 2026)
        var map = ChildrenMap()
        var model: [String: Int64] = [:]
        var snapshots: [(ChildrenMap, [String: Int64])] = []
        for step in 0..<4000 {
            let key = String(Int.random(in: -50...400, using: &random)) + (Bool.random(using: &random) ? "" : "k")
            if Int.random(in: 0..<3, using: &random) == 0 {
                map = map.removing(ChildKey(key))
                model[key] = nil
            } else {
                let value = Int64(step)
                map = map.inserting(Node(.number(.int(value))), at: ChildKey(key))
                model[key] = value
            }
            if step % 500 == 0 { snapshots.append((map, model)) }
        }
        check(map, model)
        // Persistence: older versions are untouched by later edits.
        for (snapshot, snapshotModel) in snapshots { check(snapshot, snapshotModel) }
    }

    private func check(_ map: ChildrenMap, _ model: [String: Int64]) {
        #expect(map.count == model.count)
        let expectedKeys = model.keys.map { ChildKey($0) }.sorted()
        #expect(map.keys == expectedKeys)
        #expect(Array(map.reversedEntries.map(\.key)) == expectedKeys.reversed())
        for (key, value) in model { #expect(map[ChildKey(key)] == Node(.number(.int(value)))) }
        #expect(map.first?.key == expectedKeys.first)
        #expect(map.last?.key == expectedKeys.last)
    }

    /// The walk without an iterator visits what the iterator does, in the same order.
    @Test func theWalkInKeyOrderIsTheIteratorsOrder() {
        var random = SeededRandom(seed: 45)
        for count in [0, 1, 2, 7, 100] {
            let map = ChildrenMap((0..<count).map { _ in (ChildKey("k\(random.next() % 1_000)"), Node(.bool(true))) })
            var walked: [ChildKey] = []
            map.forEachInKeyOrder { key, _ in walked.append(key) }
            #expect(walked == map.keys)
        }
    }

    @Test func buildFromSortedAndUnsortedAgree() {
        let keys = (0..<500).map { "k\($0 * 7 % 500)" }
        let unsorted = ChildrenMap(keys.map { (ChildKey($0), Node(.string($0))) })
        let sorted = ChildrenMap(sorted: keys.map { ChildKey($0) }.sorted().map { ($0, Node(.string($0.string))) })
        #expect(unsorted == sorted)
        var inserted = ChildrenMap()
        for key in keys { inserted = inserted.inserting(Node(.string(key)), at: ChildKey(key)) }
        #expect(inserted == sorted)
    }

    /// Built at once from entries in any order, with repeats, small or large: the same tree (the
    /// same shape, key by key) as inserting them one by one, the last node of a repeated key kept.
    @Test func buildingAtOnceMakesTheTreeInsertsMake() {
        var random = SeededRandom(seed: 11_27)
        for size in [0, 1, 2, 3, 5, 17, 300] {
            let entries = (0..<size).map { index -> (key: ChildKey, node: Node) in
                let key = ChildKey(String(Int.random(in: 0..<(size + 2), using: &random)))
                return (key, Node(.number(.int(Int64(index)))))
            }
            var inserted = ChildrenMap()
            for entry in entries { inserted = inserted.inserting(entry.node, at: entry.key) }
            let built = ChildrenMap(entries)
            #expect(shape(built.root) == shape(inserted.root), "size \(size)")
            #expect(Array(built).elementsEqual(Array(inserted)) { $0.key == $1.key && $0.node == $1.node })
            let inOrder = ChildrenMap(Array(inserted))
            #expect(shape(inOrder.root) == shape(inserted.root), "size \(size), in order")
        }
    }

    /// Inserted and removed in place, a map has the shape, the counts and the contents the
    /// copying operations make; versions copied along the way keep theirs.
    @Test func inPlaceEditsMakeTheTreeCopyingEditsMake() {
        var random = SeededRandom(seed: 11_28)
        var map = ChildrenMap()
        var reference = ChildrenMap()
        var kept: [(version: ChildrenMap, entries: [String])] = []
        for step in 0..<3000 {
            let key = ChildKey(String(Int.random(in: 0..<300, using: &random)))
            if Int.random(in: 0..<3, using: &random) == 0 {
                map.remove(key)
                reference = reference.removing(key)
            } else {
                let node = Node(.number(.int(Int64(step))))
                map.insert(node, at: key)
                reference = reference.inserting(node, at: key)
            }
            #expect(shape(map.root) == shape(reference.root), "step \(step)")
            #expect(countsAgree(map.root), "step \(step)")
            // A copy held here: the next edits must leave it as it is.
            if step % 150 == 0 { kept.append((map, entries(map))) }
        }
        #expect(entries(map) == entries(reference))
        for (version, expected) in kept {
            #expect(entries(version) == expected)
            #expect(countsAgree(version.root))
        }
    }

    /// A map nothing else holds takes new keys below its top entry, and loses them, without a
    /// new top entry.
    @Test func aMapHeldOnlyHereGrowsAndShrinksWhereItIs() throws {
        var map = ChildrenMap((0..<1000).map { (ChildKey("k\($0)"), Node(.bool(true))) })
        // Read without keeping a reference, which would share the top entry.
        let top = try #require(map.root.map(ObjectIdentifier.init))
        let topWeight = try #require(map.root?.weight)
        // Keys lighter than the top entry stay below it.
        let added = (0..<50).map { ChildKey("n\($0)") }.filter { ChildrenMap.weight(of: $0) < topWeight }
        for key in added { map.insert(Node(.bool(false)), at: key) }
        #expect(map.root.map(ObjectIdentifier.init) == top)
        #expect(map.count == 1000 + added.count)
        for key in added { map.remove(key) }
        map.remove(ChildKey("absent"))
        #expect(map.root.map(ObjectIdentifier.init) == top)
        #expect(map.count == 1000)
        #expect(countsAgree(map.root))
    }

    private func countsAgree(_ entry: ChildrenMap.Entry?) -> Bool {
        guard let entry else { return true }
        let below = (entry.left?.count ?? 0) + (entry.right?.count ?? 0)
        return entry.count == 1 + below && countsAgree(entry.left) && countsAgree(entry.right)
    }

    private func entries(_ map: ChildrenMap) -> [String] { map.map { "\($0.key.string)=\($0.node)" } }

    /// A tree's keys in preorder, with a marker for each missing child.
    private func shape(_ entry: ChildrenMap.Entry?) -> [String] {
        guard let entry else { return ["-"] }
        return [entry.key.string] + shape(entry.left) + shape(entry.right)
    }

    /// Equality by shape and shared subtrees agrees with equality of contents, for versions of
    /// one map, maps built apart, and maps with different keys of the same count.
    @Test func equalityAgreesWithTheContents() {
        var random = SeededRandom(seed: 11_26)
        let base = ChildrenMap((0..<300).map { (ChildKey("k\($0)"), Node(.number(.int(Int64($0))))) })
        for _ in 0..<300 {
            let key = ChildKey("k\(Int.random(in: 0..<300, using: &random))")
            let value = Int64(Int.random(in: 0..<3, using: &random) == 0 ? 9_999 : Int(key.string.dropFirst()) ?? 0)
            let edited = base.inserting(Node(.number(.int(value))), at: key)
            let apart = ChildrenMap(Array(edited).shuffled(using: &random))
            let sameContents = Array(edited).elementsEqual(Array(base)) { $0.key == $1.key && $0.node == $1.node }
            #expect((edited == base) == sameContents)
            #expect(apart == edited)
            let renamed = edited.removing(key).inserting(Node(.number(.int(value))), at: ChildKey("z\(key.string)"))
            #expect(renamed != edited)
        }
    }

    @Test func predecessor() {
        let map = ChildrenMap(["a", "c", "e"].map { (ChildKey($0), Node(.bool(true))) })
        #expect(map.predecessor(of: "c")?.key == "a")
        #expect(map.predecessor(of: "d")?.key == "c")
        #expect(map.predecessor(of: "a") == nil)
        #expect(map.predecessor(of: .max)?.key == "e")
    }

    @Test func depthStaysLogarithmic() {
        var map = ChildrenMap()
        for index in 0..<20_000 { map = map.inserting(Node(.bool(true)), at: ChildKey("key\(index)")) }
        func depth(_ entry: ChildrenMap.Entry?) -> Int {
            guard let entry else { return 0 }
            return 1 + max(depth(entry.left), depth(entry.right))
        }
        #expect(depth(map.root) < 60)
        #expect(map.count == 20_000)
    }
}
