import Testing

@testable import RTDBCore

@Suite struct SparseSnapshotTreeTests {
    private func dump(_ tree: SparseSnapshotTree) -> [String] {
        tree.overwrites().map { "\($0.path)=\($0.node.exportJSON.jsonString)" }
    }

    @Test func rememberReplacesBelowAndUpdatesInsideAbove() throws {
        var tree = SparseSnapshotTree()
        tree.remember(Path("a/b"), Node(.number(1)))
        tree.remember(Path("a/c"), Node(.number(2)))
        #expect(dump(tree) == ["/a/b=1", "/a/c=2"])
        tree.remember(Path("a"), try Node(json: ["x": true]))
        #expect(dump(tree) == [#"/a={"x":true}"#])
        tree.remember(Path("a/y"), Node(.string("z")))
        #expect(dump(tree) == [#"/a={"x":true,"y":"z"}"#])
        #expect(tree.count == 1)
    }

    @Test func forgetSplitsAStoredParent() throws {
        var tree = SparseSnapshotTree()
        tree.remember(Path("users/morgan"), try Node(json: ["online": false, "lastOnline": 5]))
        tree.forget(Path("users/morgan/online"))
        #expect(dump(tree) == ["/users/morgan/lastOnline=5"])
        tree.forget(Path("users"))
        #expect(tree.isEmpty)
    }

    @Test func forgetBelowALeafKeepsIt() {
        var tree = SparseSnapshotTree()
        tree.remember(Path("a"), Node(.bool(true)))
        let emptied = tree.forget(Path("a/b"))
        #expect(!emptied)
        #expect(dump(tree) == ["/a=true"])
    }

    @Test func nullValuesAreKeptAsRemovals() {
        var tree = SparseSnapshotTree()
        tree.remember(Path("presence/con1"), .empty)
        #expect(dump(tree) == ["/presence/con1=null"])
        #expect(tree.count == 1)
    }
}
