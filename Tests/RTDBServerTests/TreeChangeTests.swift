import RTDBCore
import RTDBWire
import Testing

@testable import RTDBServer

/// A namespace's change alone: made from what a write brings, against a tree and a time given
/// by hand; what it writes, records and leaves.
@Suite struct TreeChangeTests {
    static let now = UnixTime(millisecondsSince1970: 1_700_000_000_000)
    static let root = Node(trustedJSON: ["count": 41, "rooms": ["a": "x"]])

    static func node(_ json: JSONValue) -> Node { Node(trustedJSON: json) }

    @Test func aSetResolvesItsServerValuesAgainstTheTreeAndTheTimeGiven() throws {
        let change = try TreeChange.set(at: Path("count"), resolvingAgainst: Self.root, now: Self.now) {
            () throws(WireError) in Self.node(.object([".sv": .object(["increment": .number(.int(1))])]))
        }
        #expect(change.writes.map(\.path) == [Path("count")])
        #expect(change.writes.first?.node == Node(.number(.int(42))))
        let stamped = try TreeChange.set(at: Path("seen"), resolvingAgainst: .empty, now: Self.now) {
            () throws(WireError) in Self.node(.object([".sv": .string("timestamp")]))
        }
        #expect(stamped.recordText == "1700000000000" && stamped.kind == .set)
        #expect(stamped.applied(to: Self.root).child(at: Path("seen")) == Node(.number(.int(1_700_000_000_000))))
    }

    @Test func aWriteUnderInfoOrTooDeepIsRefusedBeforeItsDataIsRead() {
        for path in [Path(".info/connected"), Path((0...Validation.maxDepth).map { "k\($0)" }.joined(separator: "/"))] {
            #expect(throws: WireError.self) {
                try TreeChange.set(at: path, resolvingAgainst: .empty, now: Self.now) { () throws(WireError) in
                    Issue.record("read at \(path)")
                    return .empty
                }
            }
        }
    }

    @Test func aMergeResolvesEachChildAtItsTargetAndRefusesOverlappingPaths() throws {
        let increment = JSONValue.object([".sv": .object(["increment": .number(.int(2))])])
        let values: [JSONValue] = [increment, .string("y")]
        let change = try TreeChange.merge(
            at: .root, relatives: [Path("count"), Path("rooms/b")], resolvingAgainst: Self.root, now: Self.now
        ) { (index, _) throws(WireError) in Self.node(values[index]) }
        #expect(change.kind == .merge)
        #expect(change.writes.map(\.path) == [Path("count"), Path("rooms/b")])
        var written: [Path] = []
        change.forEachWrittenPath { written.append($0) }
        #expect(written == [Path("count"), Path("rooms/b")])
        #expect(change.recordText == #"{"count":43,"rooms/b":"y"}"#)
        var tree = Self.root
        change.apply(to: &tree)
        #expect(tree.child(at: Path("rooms")) == Node(trustedJSON: ["a": "x", "b": "y"]))
        #expect(Self.root.child(at: Path("count")) == Node(.number(.int(41))), "the given tree stays as it was")
        #expect(throws: WireError.self) {
            try TreeChange.merge(
                at: .root, relatives: [Path("rooms"), Path("rooms/a")], resolvingAgainst: Self.root, now: Self.now
            ) { (_, _) throws(WireError) in .empty }
        }
    }
}
