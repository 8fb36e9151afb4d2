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

    @Test func keysAreComparedByCodeUnits() {
        // "é" precomposed and "e" + U+0301: equal to Swift's `==`, two keys to Firebase.
        var tree = SparseSnapshotTree()
        tree.remember(Path("keys/\u{E9}"), Node(.number(1)))
        tree.remember(Path("keys/e\u{301}"), Node(.number(2)))
        #expect(tree.count == 2)
        #expect(tree.unorderedOverwrites().count == 2)
        tree.forget(Path("keys/e\u{301}"))
        #expect(tree.overwrites().map { $0.path.segments.last?.unicodeScalars.count } == [1])
    }

    @Test func unorderedOverwritesAreTheOverwrites() throws {
        var tree = SparseSnapshotTree()
        for index in [5, 1, 10, 3] {
            tree.remember(Path("u/k\(index)/x"), Node(.number(JSONNumber(integerLiteral: Int64(index)))))
        }
        tree.remember(Path("u/k1"), Node(.bool(true)))
        let ordered = tree.overwrites().map { "\($0.path)" }
        #expect(ordered == ["/u/k1", "/u/k10/x", "/u/k3/x", "/u/k5/x"])
        #expect(Set(tree.unorderedOverwrites().map { "\($0.path)" }) == Set(ordered))
    }
}
