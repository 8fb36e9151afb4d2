import Testing

@testable import RTDBCore

/// `Node.update(at:with:)` changes in place only what no other value holds: every copy keeps
/// what it held, and the result is always what `updating(at:with:)` makes.
@Suite struct NodeInPlaceTests {
    /// The identity of a node's top entry, without a reference that would share it. (A copy is
    /// made while the old version is still held, so it never reuses the old one's address.)
    private func entry(_ node: Node) -> ObjectIdentifier? { node.children.root.map(ObjectIdentifier.init) }

    private func tree(users: Int) -> Node {
        var root = Node.empty
        for user in 0..<users {
            root = root.updating(
                at: Path("users/u\(user)/connections/c"),
                with: Node(children: ChildrenMap([(ChildKey("d"), Node(.bool(true)))])))
        }
        return root
    }

    @Test func aVersionHeldOnlyHereIsChangedWhereItIs() {
        var root = tree(users: 50)
        // `tree` made it with new versions all the way: this value is the only holder now.
        let top = entry(root)
        let users = entry(root.child("users"))
        root.update(at: Path("users/u7/connections/c"), with: Node(.string("phone")))
        #expect(entry(root) == top)
        #expect(entry(root.child("users")) == users)
        #expect(root.child(at: Path("users/u7/connections/c")) == Node(.string("phone")))
        #expect(root.child("users").childCount == 50)
    }

    /// A child added or removed in a version held only here changes the levels above it in
    /// place too (the children's top entries stay; the new key is lighter than theirs).
    @Test func aChildAddedOrRemovedChangesTheLevelsAboveWhereTheyAre() throws {
        var root = tree(users: 50)
        let top = entry(root)
        let users = entry(root.child("users"))
        let usersWeight = try #require(root.child("users").children.root?.weight)
        let key = try #require(
            (0..<100).map { "new\($0)" }.first { ChildrenMap.weight(of: ChildKey($0)) < usersWeight })
        root.update(at: Path("users/\(key)/connections/c"), with: Node(.bool(true)))
        #expect(entry(root) == top)
        #expect(entry(root.child("users")) == users)
        #expect(root.child("users").childCount == 51)
        root.update(at: Path("users/\(key)/connections/c"), with: .empty)
        root.update(at: Path("users/u3"), with: .empty)
        #expect(entry(root) == top)
        #expect(root.child("users").childCount == 49)
        #expect(!root.child("users").hasChild(ChildKey(key)))
    }

    @Test func aCopyKeepsWhatItHeld() {
        var root = tree(users: 50)
        let kept = root
        let expected = kept.updating(at: Path("users/u7/connections/c"), with: Node(.string("phone")))
        root.update(at: Path("users/u7/connections/c"), with: Node(.string("phone")))
        #expect(root == expected)
        #expect(kept.child(at: Path("users/u7/connections/c/d")) == Node(.bool(true)))
        #expect(entry(root) != entry(kept))
        // A subtree someone else holds is copied too, and keeps its data.
        var again = root
        let users = root.child("users")
        again.update(at: Path("users/u8/connections/c"), with: Node(.number(.int(8))))
        #expect(users.child(at: Path("u8/connections/c/d")) == Node(.bool(true)))
        #expect(again.child(at: Path("users/u8/connections/c")) == Node(.number(.int(8))))
    }

    @Test func agreesWithUpdatingUnderRandomEdits() {
        var random = SeededRandom(seed: 33)
        var node = Node.empty
        var reference = Node.empty
        var kept: [(Node, Node)] = []
        for step in 0..<3000 {
            let depth = Int(random.next() % 3) + 1
            let path = Path(segments: (0..<depth).map { _ in "k\(random.next() % 12)" })
            let value: Node
            switch random.next() % 4 {
            case 0: value = .empty
            case 1: value = Node(children: ChildrenMap([(ChildKey("x"), Node(.number(.int(Int64(step)))))]))
            default: value = Node(.number(.int(Int64(step))))
            }
            node.update(at: path, with: value)
            reference = reference.updating(at: path, with: value)
            #expect(node == reference, "step \(step): \(path) = \(value)")
            if step % 100 == 0 { kept.append((node, reference)) }
        }
        // Versions kept along the way were never changed under their holders.
        for (version, expected) in kept { #expect(version == expected) }
    }

    @Test func removingTheLastChildLeavesTheEmptyNode() {
        var node = Node.empty.updating(at: Path("a/b"), with: Node(.bool(true))).withPriority(.number(3))
        node.update(at: Path("a/b"), with: .empty)
        #expect(node.isEmpty)
        #expect(node.priority == nil)
    }
}
