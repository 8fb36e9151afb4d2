import RTDBCore
import Testing

@testable import RTDBWire

/// A data push read straight into nodes is the push and the nodes the general reading makes;
/// whatever it does not take is left to the general reading.
@Suite struct DataPushTests {
    /// The push read both ways: straight, and through the JSON tree.
    private static func bothWays(_ text: String) -> (straight: ServerPush?, general: ServerPush?) {
        var general: ServerPush?
        if case .push(.data(let path, let data, let tag))? = try? WireMessage(text: text),
            let node = try? Node(json: data, at: path)
        {
            general = .dataNode(path: path, node: node, tag: tag)
        }
        return (WireMessage.dataPush(inText: text), general)
    }

    @Test func readsWhatTheGeneralReadingReads() {
        let texts = [
            #"{"t":"d","d":{"a":"d","b":{"p":"status","d":{"u1":{"state":"online","last_changed":5},"u2":null}}}}"#,
            // Firebase's own order (the body first), the data before the path, and a tag.
            #"{"d":{"b":{"d":{"b":2,"a":{"x":true}},"p":"/rooms/r1","t":7},"a":"d"},"t":"d"}"#,
            #"{"t":"d","d":{"a":"d","b":{"p":"","d":"text"}}}"#,
            #"{"t":"d","d":{"a":"d","b":{"p":"a/b","d":null}}}"#,
            #" {"t" : "d", "d" : {"a":"d", "b":{"p":"n","d":-1.5e3}}} "#,
            #"{"t":"d","d":{"a":"d","b":{"p":"k","d":{"z":1,"a":{"é":"x","2":3,"10":4}}}}}"#,
        ]
        for text in texts {
            let (straight, general) = Self.bothWays(text)
            #expect(straight != nil, "\(text)")
            #expect(straight == general, "\(text)")
        }
    }

    @Test func leavesTheRestToTheGeneralReading() {
        let texts = [
            // Arrays, priorities, `.value`, server values: the general reading's.
            #"{"t":"d","d":{"a":"d","b":{"p":"a","d":[1,2]}}}"#,
            #"{"t":"d","d":{"a":"d","b":{"p":"a","d":{".priority":1,"x":2}}}}"#,
            #"{"t":"d","d":{"a":"d","b":{"p":"a","d":{".value":1}}}}"#,
            #"{"t":"d","d":{"a":"d","b":{"p":"a","d":{".sv":"timestamp"}}}}"#,
            // Other messages and actions.
            #"{"t":"d","d":{"a":"m","b":{"p":"a","d":{"x":1}}}}"#,
            #"{"t":"d","d":{"r":1,"b":{"s":"ok","d":""}}}"#,
            #"{"t":"c","d":{"t":"h","d":{"ts":1,"v":"5","h":"x","s":"y"}}}"#,
            #"{"t":"d","d":{"a":"d","b":{"p":"a","d":1,"q":{}}}}"#,
            // A repeated member, trailing text, bad JSON, an invalid key, too deep.
            #"{"t":"d","d":{"a":"d","b":{"p":"a","d":1,"d":2}}}"#,
            #"{"t":"d","d":{"a":"d","b":{"p":"a","d":1}}} x"#,
            #"{"t":"d","d":{"a":"d","b":{"p":"a","d":{"x":}}}}"#,
            #"{"t":"d","d":{"a":"d","b":{"p":"a","d":{"a/b":1}}}}"#,
            #"{"t":"d","d":{"a":"d","b":{"p":"a","d":"# + String(repeating: #"{"k":"#, count: 40) + "1"
                + String(repeating: "}", count: 40) + "}}}",
            "", "{", "null", #"{"t":"d"}"#,
        ]
        for text in texts {
            #expect(WireMessage.dataPush(inText: text) == nil, "\(text)")
        }
    }

    @Test func readsAHundredThousandMembersIntoOneNode() {
        var text = #"{"t":"d","d":{"a":"d","b":{"p":"status","d":{"#
        text += (0..<100_000).map { #""u\#($0)":{"state":"online"}"# }.joined(separator: ",")
        text += "}}}}"
        guard case .dataNode(let path, let node, nil)? = WireMessage.dataPush(inText: text) else {
            Issue.record("not read")
            return
        }
        #expect(path == Path("status") && node.childCount == 100_000)
        #expect(node.child("u99999").child("state").leafValue == .string("online"))
    }

    /// A first list: more than 1,024 members, in key order (as every Firebase server sends them).
    private static func firstList(_ member: (Int) -> String) -> String {
        let members = (0..<3_000).map { #""u\#(String(format: "%05d", $0))":\#(member($0))"# }
        return #"{"t":"d","d":{"a":"d","b":{"p":"status","d":{"# + members.joined(separator: ",") + "}}}}"
    }

    @Test func keepsALargeObjectAsItsTextAndReadsItAsTheGeneralReadingDoes() {
        let text = Self.firstList { n in
            n % 7 == 0 ? "null" : #"{"state":"\#(n % 2 == 0 ? "online" : "offline")","last_changed":\#(n).0,"x":{}}"#
        }
        let (straight, general) = Self.bothWays(text)
        guard case .dataNode(_, let node, nil)? = straight else {
            Issue.record("not read")
            return
        }
        #expect(node.children.isPacked)
        #expect(node.childCount == 3_000 - 429)
        #expect(straight == general)
    }

    @Test func aLargeObjectTheGeneralReadingKeepsIsLeftToIt() {
        // A priority deep inside one member: the whole push goes the general way.
        let text = Self.firstList { n in n == 2_500 ? #"{".priority":1,"state":"x"}"# : #"{"state":"x"}"# }
        #expect(WireMessage.dataPush(inText: text) == nil)
        // Members out of key order: read as nodes, not packed.
        let shuffled =
            #"{"t":"d","d":{"a":"d","b":{"p":"s","d":{"#
            + (0..<3_000).reversed().map { #""k\#($0)":1"# }
            .joined(separator: ",") + "}}}}"
        let (straight, general) = Self.bothWays(shuffled)
        guard case .dataNode(_, let node, nil)? = straight else {
            Issue.record("not read")
            return
        }
        #expect(!node.children.isPacked)
        #expect(straight == general)
    }
}
