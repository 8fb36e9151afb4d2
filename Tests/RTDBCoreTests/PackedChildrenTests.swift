import Testing

@testable import RTDBCore

/// A large object kept as its text (``PackedChildren``) behaves, through every edit, as the node
/// tree the plain reading makes of it.
@Suite struct PackedChildrenTests {
    /// Reads `text` the way a data push is read (large objects packed).
    private func packedRead(_ text: String, depth: Int = 1) -> Node? {
        JSONParser.reading(text) { (parser) throws(JSONParseError) -> Node? in
            try parser.parsePlainNodePacked(depth: depth)
        } ?? nil
    }

    /// Reads `text` as nodes, nothing packed.
    private func plainRead(_ text: String, depth: Int = 1) -> Node? {
        JSONParser.reading(text) { (parser) throws(JSONParseError) -> Node? in
            try parser.parsePlainNode(depth: depth)
        } ?? nil
    }

    private static let names = ["user", "zoë", "प्रिया", "محمد", "李", "👩‍💻dev", "a b"]

    /// A random key: integer keys, and names in several scripts.
    private func key(_ random: inout SeededRandom) -> String {
        if Int.random(in: 0..<5, using: &random) == 0 { return String(Int.random(in: -3000...3000, using: &random)) }
        let name = PackedChildrenTests.names.randomElement(using: &random) ?? "user"
        return name + String(Int.random(in: 0..<4000, using: &random))
    }

    /// A random value's JSON: presence entries mostly, and nulls, empty objects, leaves.
    private func value(_ random: inout SeededRandom, step: Int) -> String {
        switch Int.random(in: 0..<12, using: &random) {
        case 0: return "null"
        case 1: return "{}"
        case 2: return #"{"gone":null}"#
        case 3: return "\"text \(step) \\u00e9\""
        case 4: return "\(step).5"
        case 5: return "true"
        case 6: return #"{"b":1,"a":2}"#  // unordered inside: read to tell
        default:
            let state = Bool.random(using: &random) ? "online" : "offline"
            return #"{"last_changed":\#(1_700_000_000_000 + step),"state":"\#(state)","x":null}"#
        }
    }

    /// A random object's text, its keys in key order, with at least `count` members.
    private func objectText(_ random: inout SeededRandom, count: Int) -> String {
        var keys = Set<String>()
        while keys.count < count { keys.insert(key(&random)) }
        let sorted = keys.sorted { ChildKey($0) < ChildKey($1) }
        let members = sorted.enumerated().map { step, key in
            "\"\(key)\" : \(value(&random, step: step))"
        }
        return "{" + members.joined(separator: ",") + "}"
    }

    @Test func aLargeObjectReadsAsThePlainNodes() throws {
        var random = SeededRandom(seed: 55)
        let text = objectText(&random, count: 3000)
        let packed = try #require(packedRead(text))
        let plain = try #require(plainRead(text))
        #expect(packed.children.isPacked)
        #expect(!plain.children.isPacked)
        #expect(packed == plain)
        #expect(plain == packed)
        #expect(packed.hashValue == plain.hashValue)
        #expect(packed.children.count == plain.children.count)
        #expect(Array(packed.children.map(\.key)) == Array(plain.children.map(\.key)))
        #expect(Array(packed.children.reversedEntries.map(\.key)) == Array(plain.children.reversedEntries.map(\.key)))
        #expect(packed.children.first?.key == plain.children.first?.key)
        #expect(packed.children.last?.key == plain.children.last?.key)
        #expect(packed.exportJSON == plain.exportJSON)
        for _ in 0..<300 {
            let probe = ChildKey(key(&random))
            #expect(packed.children[probe] == plain.children[probe])
            #expect(packed.children.predecessor(of: probe)?.key == plain.children.predecessor(of: probe)?.key)
        }
    }

    @Test func editsKeepItTheSameAsThePlainNodes() throws {
        var random = SeededRandom(seed: 57)
        let text = objectText(&random, count: 2000)
        var packed = try #require(packedRead(text))
        var plain = try #require(plainRead(text))
        #expect(packed.children.isPacked)
        let keys = plain.children.keys.map(\.string)
        for step in 0..<3000 {
            let (packedBefore, plainBefore) = (packed, plain)
            // Keys already there, mostly, and new ones.
            let name = Bool.random(using: &random) ? keys.randomElement(using: &random) ?? "" : key(&random)
            let node = try #require(plainRead(value(&random, step: step)))
            switch Int.random(in: 0..<4, using: &random) {
            case 0:
                packed = packed.updating(at: Path(segments: [name]), with: node)
                plain = plain.updating(at: Path(segments: [name]), with: node)
            case 1:
                packed.update(at: Path(segments: [name, "state"]), with: node)
                plain.update(at: Path(segments: [name, "state"]), with: node)
            case 2:
                packed.update(at: Path(segments: [name]), with: .empty)
                plain.update(at: Path(segments: [name]), with: .empty)
            default:
                let writes: [(path: Path, node: Node)] = [
                    (Path(segments: [name, "state"]), node), (Path(segments: [name, "last_changed"]), .empty),
                ]
                packed = packed.updating(batch: writes)
                plain = plain.updating(batch: writes)
            }
            #expect(packed.children.count == plain.children.count, "step \(step)")
            if step % 100 == 0 {
                #expect(packed.children.isPacked)
                #expect(packed == plain, "step \(step)")
                #expect(Array(packed.children.map(\.key)) == Array(plain.children.map(\.key)))
                let probe = ChildKey(key(&random))
                #expect(packed.children.predecessor(of: probe)?.key == plain.children.predecessor(of: probe)?.key)
            }
            let packedChanges = packed.children.changes(from: packedBefore.children)
            let plainChanges = plain.children.changes(from: plainBefore.children)
            #expect(describe(packedChanges) == describe(plainChanges), "step \(step)")
            // Without the nodes before: every change, each as it is now, and perhaps a child
            // written with the value its text had.
            let now = packed.children.changedChildren(from: packedBefore.children)
            let changedKeys = Set(plainChanges.map(\.key))
            #expect(changedKeys.isSubset(of: Set(now.map(\.key))), "step \(step)")
            for child in now { #expect(child.node == plain.children[child.key], "step \(step)") }
        }
    }

    @Test func twoTextsAreComparedChildByChild() throws {
        var random = SeededRandom(seed: 58)
        let first = try #require(packedRead(objectText(&random, count: 1500)))
        let second = try #require(packedRead(objectText(&random, count: 1500)))
        let plainFirst = Node(children: ChildrenMap(Array(first.children)))
        let plainSecond = Node(children: ChildrenMap(Array(second.children)))
        #expect(
            describe(second.children.changes(from: first.children))
                == describe(plainSecond.children.changes(from: plainFirst.children)))
        #expect(first.children.changes(from: first.children).isEmpty)
        let again = try #require(packedRead(first.exportJSON.jsonString))
        #expect(again.children.isPacked)
        #expect(again.children.changes(from: first.children).isEmpty)
        #expect(again == first)
    }

    @Test func whatThePlainReadingDoesNotTakeIsNotPacked() throws {
        var random = SeededRandom(seed: 59)
        let text = objectText(&random, count: 1500)
        let inner = String(text.dropFirst().dropLast())
        let cases = [
            // Out of key order: a key may repeat, and the last one wins.
            "{\"zzzz\":1," + inner + ",\"zzzz\":null}",
            "{" + inner + ",\"user1\":{\".priority\":1,\"a\":1}}",
            "{" + inner + ",\"\u{FFFF}a\":[1,2]}",
            "{" + inner + ",\"\u{FFFF}b\":{\".sv\":\"timestamp\"}}",
            // Hostile members: nested past the deepest path, a control character in a key, a
            // key over 768 bytes, a number that is not one, the text cut off.
            "{" + inner + ",\"\u{FFFF}c\":" + String(repeating: "{\"k\":", count: 40) + "1"
                + String(repeating: "}", count: 40) + "}",
            "{" + inner + ",\"\u{FFFF}d\\u0001\":1}",
            "{" + inner + ",\"\u{FFFF}" + String(repeating: "k", count: 800) + "\":1}",
            "{" + inner + ",\"\u{FFFF}e\":01}",
            String(("{" + inner + "}").dropLast(7)),
            // Too few children.
            "{\"a\":1,\"b\":" + String(repeating: " ", count: 20_000) + "2}",
        ]
        for text in cases {
            let node = packedRead(text)
            #expect(node?.children.isPacked != true)
            #expect(node == plainRead(text))
        }
    }

    /// Changes as comparable text, in key order.
    private func describe(_ changes: [ChildrenMap.ChildChange]) -> [String] {
        changes.map { "\($0.key.string): \($0.old?.description ?? "-") -> \($0.new?.description ?? "-")" }.sorted()
    }
}
