import RTDBCore
import Testing

/// ``ChildrenMap/changes(from:)``: what differs between two versions, checked against a
/// comparison of every key.
@Suite struct ChildrenMapDiffTests {
    /// Every key's node in both maps, compared one by one: the answer the walk must give.
    private static func expected(_ old: ChildrenMap, _ new: ChildrenMap) -> [String: (Node?, Node?)] {
        var all: [String: (Node?, Node?)] = [:]
        for (key, node) in old { all[key.string, default: (nil, nil)].0 = node }
        for (key, node) in new { all[key.string, default: (nil, nil)].1 = node }
        return all.filter { $0.value.0 != $0.value.1 }
    }

    private static func check(_ old: ChildrenMap, _ new: ChildrenMap) {
        let changes = new.changes(from: old)
        let want = expected(old, new)
        #expect(changes.count == want.count)
        #expect(Set(changes.map(\.key.string)).count == changes.count, "each key once")
        for change in changes {
            let pair = want[change.key.string]
            #expect(pair?.0 == change.old && pair?.1 == change.new, "\(change.key)")
        }
    }

    @Test func versionsOfOneMapDifferWhereTheyWereEdited() {
        var random = SeededRandom(seed: 55)
        var map = ChildrenMap((0..<2_000).map { (ChildKey("user\($0)"), Node(.number(.int(Int64($0))))) })
        for round in 0..<200 {
            let before = map
            // A few edits a version: new children, changed ones, removed ones, and a rewrite of
            // a child with the same value (no change).
            for _ in 0..<Int.random(in: 0...6, using: &random) {
                let key = ChildKey("user\(Int.random(in: 0..<2_500, using: &random))")
                switch Int.random(in: 0..<4, using: &random) {
                case 0: map = map.removing(key)
                case 1: map = map.inserting(map[key] ?? Node(.bool(true)), at: key)
                default: map = map.inserting(Node(.string("r\(round)")), at: key)
                }
            }
            Self.check(before, map)
            Self.check(map, before)
        }
    }

    @Test func unrelatedMapsAndEmptyOnesAreComparedWhole() {
        let a = ChildrenMap((0..<300).map { (ChildKey("k\($0 * 3)"), Node(.bool(true))) })
        let b = ChildrenMap((0..<300).map { (ChildKey("k\($0 * 2)"), Node(.bool($0 % 2 == 0))) })
        Self.check(a, b)
        Self.check(b, a)
        Self.check(ChildrenMap(), a)
        Self.check(a, ChildrenMap())
        #expect(a.changes(from: a).isEmpty)
    }

    /// A child rebuilt with the same data is no change; a child whose grandchild changed is one.
    @Test func nestedChildrenAreComparedByTheirData() {
        let profile = Node(children: ChildrenMap([(ChildKey("state"), Node(.string("online")))]))
        let map = ChildrenMap([(ChildKey("ana"), profile), (ChildKey("bo"), profile)])
        let same = map.inserting(
            Node(children: ChildrenMap([(ChildKey("state"), Node(.string("online")))])), at: ChildKey("ana"))
        #expect(same.changes(from: map).isEmpty)
        let offline = map.inserting(
            Node(children: ChildrenMap([(ChildKey("state"), Node(.string("offline")))])), at: ChildKey("bo"))
        #expect(offline.changes(from: map).map(\.key.string) == ["bo"])
    }
}
