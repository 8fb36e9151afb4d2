import Testing

@testable import RTDBCore

@Suite struct PathTests {
    @Test func normalisesSlashes() {
        #expect(Path("/a//b/").segments == ["a", "b"])
        #expect(Path("/a//b/") == Path("a/b"))
        #expect(Path("").isEmpty)
        #expect(Path("/").isEmpty)
        #expect(Path("///").isEmpty)
        #expect(Path("a/b").description == "/a/b")
        #expect(Path.root.description == "/")
        #expect(Path("/a/b/").relativeString == "a/b")
    }

    @Test func childParentAndFront() {
        let path = Path("users/morgan")
        #expect(path.child("connections") == Path("users/morgan/connections"))
        #expect(path.child("a/b") == Path("users/morgan/a/b"))
        #expect(path.child(Path("x/y")).count == 4)
        #expect(path.parent == Path("users"))
        #expect(Path("users").parent == .root)
        #expect(Path.root.parent == nil)
        #expect(path.front == "users")
        #expect(path.back == "morgan")
        #expect(path.popFront == Path("morgan"))
        #expect(Path.root.popFront == .root)
    }

    @Test func relativePaths() {
        let base = Path("a/b")
        #expect(base.contains(Path("a/b/c/d")))
        #expect(base.contains(base))
        #expect(Path.root.contains(base))
        #expect(!base.contains(Path("a")))
        #expect(!base.contains(Path("a/bc")))
        #expect(base.relativePath(to: Path("a/b/c/d")) == Path("c/d"))
        #expect(base.relativePath(to: base) == .root)
        #expect(base.relativePath(to: Path("a/x")) == nil)
    }

    @Test func comparisonUsesKeyOrderPerSegment() {
        #expect(Path("a/2") < Path("a/10"))
        #expect(Path("a") < Path("a/b"))
        #expect(Path("a/b") < Path("b"))
        #expect(!(Path("a/b") < Path("a/b")))
        #expect(Path("1/z") < Path("a"))
    }

    @Test func infoPaths() {
        #expect(Path(".info/connected").isInfo)
        #expect(!Path("info/connected").isInfo)
    }
}

extension PathTests {
    @Test func parsingBytesMatchesParsingText() {
        for text in ["", "/", "a", "/a//b/", "users/ünï/ø", "a/b/c/d/e/f", "//x//"] {
            let fromBytes = Array(text.utf8).withUnsafeBufferPointer { Path(utf8: $0) }
            #expect(fromBytes == Path(text))
            #expect(fromBytes.segments == text.split(separator: "/").map(String.init))
        }
    }

    /// A path's string forms are its segments joined by `/`, with the slashes asked for, for
    /// keys of any script and length (a joined string made the old way is the reference).
    @Test func stringFormsJoinTheSegments() {
        let paths = [
            Path.root, Path("a"), Path("a/b"), Path("users/é/e\u{301}/\u{1F600}"),
            Path(segments: [String(repeating: "k", count: 40), "x y", "\"q\""]),
        ]
        for path in paths {
            let joined = path.segments.joined(separator: "/")
            #expect(path.description == "/" + joined)
            #expect(path.relativeString == joined)
            #expect(path.slashJoined(leading: true, trailing: true) == (path.isEmpty ? "//" : "/" + joined + "/"))
            #expect(path.slashJoined(leading: false, trailing: true) == (path.isEmpty ? "/" : joined + "/"))
        }
    }
}
