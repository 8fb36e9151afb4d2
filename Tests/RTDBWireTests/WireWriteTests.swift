import RTDBCore
import Testing

@testable import RTDBWire

/// A write read straight from its text is the write the general reading makes of it (the
/// message, the request, the data's conversion), and anything it cannot read exactly so is left
/// to the general reading.
@Suite struct WireWriteTests {
    /// The write the general reading makes of `text`, or nil.
    private func general(_ text: String) -> WireWrite? {
        guard case .request(let number, let action, let body)? = try? WireMessage(text: text),
            let request = try? ClientRequest(action: action, body: body)
        else { return nil }
        return (try? WireWrite(number: number, request: request)) ?? nil
    }

    @Test(arguments: [
        #"{"t":"d","d":{"r":1,"a":"p","b":{"p":"/users/u1/connections/c1","d":{"device":"phone","at":17}}}}"#,
        #"{"t":"d","d":{"r":2,"a":"p","b":{"p":"a/b","d":"text \u00e9 \"quoted\"","h":"abc="}}}"#,
        #"{"t":"d","d":{"r":3,"a":"p","b":{"p":"/a","d":null}}}"#,
        #"{"t":"d","d":{"r":4,"a":"p","b":{"p":"/a"}}}"#,
        #"{"t":"d","d":{"r":5,"a":"p","b":{"p":"/a","d":{"gone":null,"kept":{"x":-0,"y":1.5e3,"z":true}}}}}"#,
        #"{"t":"d","d":{"r":6,"a":"p","b":{"p":"/a","d":{"e\u0301":1,"\u00e9":2,"10":3,"9":4,"b":{}}}}}"#,
        #" { "d" : { "a" : "p", "b" : {"p":"/a","ik":"w-1","d":1,"h":null} , "r" : 7 }, "t":"d" } "#,
        #"{"t":"d","d":{"r":8,"a":"m","b":{"p":"/users/u1","d":{"a/b":1,"c":null,"d":{"e":false}},"ik":"k-1"}}}"#,
        #"{"t":"d","d":{"r":9,"a":"m","b":{"p":"/","d":{},"h":17}}}"#,
        #"{"t":"d","d":{"r":10,"a":"p","b":{"p":"/a/.priority","d":5,"extra":[1,{"x":2}]}}}"#,
        #"{"t":"d","d":{"r":-2147483648,"a":"p","b":{"p":"/a","d":12345678901234567}}}"#,
        #"{"t":"d","d":{"r":14,"a":"p","b":{"p":"/a","d":{".sv":"timestamp"}}}}"#,
        // Members in any order, as a client serialising a dictionary sends them.
        #"{"t":"d","d":{"r":15,"a":"p","b":{"d":{"x":{"y":1}},"p":"/a"}}}"#,
        #"{"t":"d","d":{"r":16,"b":{"p":"/a","d":1,"h":"x"},"a":"p"}}"#,
        #"{"d":{"b":{"ik":"k","d":{"b/c":2},"h":5,"p":"/a"},"a":"m","r":17},"t":"d"}"#,
        #"{"t":"d","d":{"r":12,"a":"p","b":{"p":"/u/c/k","d":{"device":"phone","connectedAt":{".sv":"timestamp"}}}}}"#,
        #"{"t":"d","d":{"r":13,"a":"m","b":{"p":"/u","d":{"n":{".sv":{"increment":2}},"m/x":{"\u002esv":"timestamp"}}}}}"#,
        // The engine refuses this one, as it refuses it read the general way.
        #"{"t":"d","d":{"r":11,"a":"p","b":{"p":"/.info/x","d":1}}}"#,
    ])
    func readsPlainWritesAsTheGeneralReadingDoes(text: String) throws {
        let write = try #require(WireWrite.read(text), "a plain write is read straight")
        #expect(write == general(text))
        #expect(write.dataTextReadsBack, "\(String(describing: write.dataText))")
        // The log keeps a server value resolved, so no text is kept for it.
        #expect((write.dataText == nil) == text.contains("sv\""))
    }

    @Test(arguments: [
        // Data the general reading treats apart, or refuses.
        #"{"t":"d","d":{"r":1,"a":"p","b":{"p":"/a","d":{"x":1,"x":null}}}}"#,
        #"{"t":"d","d":{"r":1,"a":"p","b":{"p":"/a","d":{"y":1,"x":2,"y":3}}}}"#,
        #"{"t":"d","d":{"r":1,"a":"p","b":{"p":"/a","d":{"x":1,".priority":2}}}}"#,
        #"{"t":"d","d":{"r":1,"a":"p","b":{"p":"/a","d":{".sv":"timestamp","x":1}}}}"#,
        #"{"t":"d","d":{"r":1,"a":"p","b":{"p":"/a","d":{"x":1,".sv":"timestamp"}}}}"#,
        #"{"t":"d","d":{"r":1,"a":"p","b":{"p":"/a","d":{".sv":"later"}}}}"#,
        #"{"t":"d","d":{"r":1,"a":"p","b":{"p":"/a","d":{".sv":{"increment":"2"}}}}}"#,
        #"{"t":"d","d":{"r":1,"a":"p","b":{"p":"/a","d":[1,2]}}}"#,
        #"{"t":"d","d":{"r":1,"a":"p","b":{"p":"/a","d":{"a$b":1}}}}"#,
        #"{"t":"d","d":{"r":1,"a":"p","b":{"p":"/a","d":{"":1}}}}"#,
        #"{"t":"d","d":{"r":1,"a":"m","b":{"p":"/a","d":{"b":1,"b":2}}}}"#,
        #"{"t":"d","d":{"r":1,"a":"m","b":{"p":"/a","d":null}}}"#,
        // Envelopes it does not read.
        #"{"t":"d","d":{"r":1.0,"a":"p","b":{"p":"/a","d":1}}}"#,
        #"{"t":"d","d":{"r":2147483648,"a":"p","b":{"p":"/a","d":1}}}"#,
        #"{"t":"d","d":{"a":"p","b":{"p":"/a","d":1}}}"#,
        #"{"t":"d","d":{"r":1,"a":"p","b":{"p":"/a","d":1,"h":5}}}"#,
        #"{"t":"d","d":{"r":1,"a":"p","b":{"p":"/a","d":1,"ik":""}}}"#,
        #"{"t":"d","d":{"r":1,"a":"p","b":{"p":"/a$","d":1}}}"#,
        #"{"t":"d","d":{"r":1,"a":"p","a":"p","b":{"p":"/a","d":1}}}"#,
        #"{"t":"d","d":{"r":1,"a":"q","b":{"p":"/a","h":""}}}"#,
        #"{"t":"c","d":{"t":"p","d":{}}}"#,
        #"{"t":"d","d":{"r":1,"a":"p","b":{"p":"/a","d":1}}} x"#,
        #"{"t":"d","d":{"r":1,"a":"p","b":{"p":"/a","d":"\ud800"}}}"#,
        // Names and words spelled with escapes: the general reading decodes them, this does not.
        #"{"\u0074":"d","d":{"r":1,"a":"p","b":{"p":"/a","d":1}}}"#,
        #"{"t":"\u0064","d":{"r":1,"a":"p","b":{"p":"/a","d":1}}}"#,
        #"{"t":"d","d":{"r":1,"\u0061":"p","b":{"p":"/a","d":1}}}"#,
        #"{"t":"d","d":{"r":1,"a":"\u0070","b":{"p":"/a","d":1}}}"#,
        #"{"t":"d","d":{"r":1,"a":"p","b":{"\u0070":"/a","d":1}}}"#,
        #"{"t":"d","d":{"r":1,"a":"p","b":{"p":"/a","d":1,"\u0068":"x"}}}"#,
    ])
    func leavesTheRestToTheGeneralReading(text: String) {
        #expect(WireWrite.read(text) == nil)
    }

    @Test func deepDataIsLeftToTheGeneralReading() {
        let deep = String(repeating: #"{"k":"#, count: 40) + "1" + String(repeating: "}", count: 40)
        #expect(WireWrite.read(#"{"t":"d","d":{"r":1,"a":"p","b":{"p":"/a","d":\#(deep)}}}"#) == nil)
        let shallow = String(repeating: #"{"k":"#, count: 20) + "1" + String(repeating: "}", count: 20)
        let text = #"{"t":"d","d":{"r":1,"a":"p","b":{"p":"/a","d":\#(shallow)}}}"#
        #expect(WireWrite.read(text) != nil && WireWrite.read(text) == general(text))
    }

    /// Messages put together at random from plain and unusual parts: whatever is read straight
    /// is what the general reading makes, and every message made only of plain parts is.
    @Test func randomMessagesReadAlike() {
        var random = SeededRandom(seed: 3_3_2026)
        var straight = 0
        for round in 0..<3_000 {
            var plain = true
            func pick<T>(_ usual: T, _ unusual: [T]) -> T {
                guard random.next() % 8 == 0, let other = unusual.randomElement(using: &random) else { return usual }
                plain = false
                return other
            }
            func data(_ depth: Int) -> String {
                switch random.next() % (depth > 2 ? 3 : 5) {
                case 0: return pick(String(random.next() % 1000), ["1e400", "-0", "[1]", "01"])
                case 1: return pick(#""v\#(random.next() % 9)""#, [#""\ud800""#, #""\u00e9\n""#])
                case 2: return pick("true", ["null", "nul"])
                default:
                    let distinct = ["k0", "k1", "k2", "k3", "k4"].shuffled(using: &random).prefix(
                        Int(random.next() % 4))
                    let keys = distinct.map { pick($0, [".sv", ".priority", "a/b", "", "é", "1", "k0", "k1"]) }
                    let members = keys.map { #""\#($0)":\#(data(depth + 1))"# }
                    return "{" + members.joined(separator: ",") + "}"
                }
            }
            let action = pick("p", ["m", "q", "o"])
            var members = [#""p":"\#(pick("/u/x", ["/u/$", "/.info", "/a/.priority"]))""#, #""d":\#(data(0))"#]
            members += [pick("", [#""h":"x""#, #""ik":1"#])].filter { !$0.isEmpty }
            let body = "{" + members.shuffled(using: &random).joined(separator: ",") + "}"
            let envelope = [#""r":\#(round)"#, #""a":"\#(action)""#, #""b":\#(body)"#].shuffled(using: &random)
            let text = #"{"t":"d","d":{"# + envelope.joined(separator: ",") + "}}"
            let write = WireWrite.read(text)
            if let write {
                straight += 1
                #expect(write == general(text), "\(text)")
                #expect(write.dataTextReadsBack, "\(text)")
            }
            if plain { #expect(write != nil, "\(text) is plain") }
        }
        #expect(straight > 500, "the straight reading took \(straight) of 3,000")
    }
}
