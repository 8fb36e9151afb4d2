import PresenceModel
import RTDBCore
import Testing

@testable import Presence

/// A first list kept packed is read in place (``PackedValue``) exactly as its nodes read.
@Suite struct PackedEntryTests {
    /// Random entries for either layout, with every oddity a layout must name or pass over.
    private func entry(_ random: inout SeededRandom, step: Int) -> String {
        let fields = [
            #""state":"online""#, #""state":"offline""#, #""state":7"#, #""state":{"a":1}"#, #""state":null"#,
            #""last_changed":\#(1_700_000_000_000 + step)"#, #""last_changed":5.0"#, #""last_changed":"soon""#,
            #""last_changed":1e300"#, #""lastOnline":\#(1_700_000_000_000 + step)"#, #""lastOnline":true"#,
            #""connections":{"-Nabc\#(step)":true,"-Mxyz":{"device":"phone","connectedAt":17}}"#,
            #""connections":{"b":{"device":"tab\u00e9"},"a":true,"c":null}"#, #""connections":{}"#,
            #""connections":"none""#, #""connections":{"x":{"gone":null}}"#,
            #""\u0078tra":"online""#, #""z":{"y":{"x":null}}"#,
        ]
        switch Int.random(in: 0..<10, using: &random) {
        case 0: return "\"text\""
        case 1: return "12"
        case 2: return "false"
        default:
            let count = Int.random(in: 1...4, using: &random)
            let chosen = (0..<count).compactMap { _ in fields.randomElement(using: &random) }
            // One field once: plain data has no repeated key.
            var seen = Set<String>()
            let unique = chosen.filter { seen.insert(String($0.prefix { $0 != ":" })).inserted }
            return "{" + unique.joined(separator: ",") + "}"
        }
    }

    @Test(arguments: [PresenceLayout.documented, .statusNodes])
    func packedUsersReadAsTheirNodes(layout: PresenceLayout) throws {
        var random = SeededRandom(seed: 5502)
        let members = (0..<1500).map { step in
            "\"user\(String(format: "%05d", step))\":\(entry(&random, step: step))"
        }
        let text = "{" + members.joined(separator: ",") + "}"
        let read = JSONParser.reading(text) { (parser) throws(JSONParseError) -> Node? in
            try parser.parsePlainNodePacked(depth: 1)
        }
        let node = try #require(read ?? nil)
        #expect(node.children.isPacked)
        var compared = 0
        node.children.forEachChild { key, value in
            guard case .packed(let packed) = value else {
                Issue.record("\(key.string) is not packed")
                return
            }
            let fromNode = node.children[key] ?? .empty
            #expect(packed.node == fromNode, "\(key.string)")
            #expect(
                layout.user(id: key.string, from: packed) == layout.user(id: key.string, from: fromNode),
                "\(key.string)")
            #expect(packed.kind == fromNode.kind)
            #expect(packed.members?.map(\.key) == fromNode.members?.map(\.key))
            compared += 1
        }
        #expect(compared == node.children.count)
        // The directory's first list reads the packed text where it stands.
        let users = PresenceDirectory.users(in: node.children, layout: layout)
        var expected: [UserPresence] = []
        node.children.forEachInKeyOrder { expected.append(layout.user(id: $0.string, from: $1)) }
        #expect(Array(users) == expected)
    }
}
