import Testing

@testable import RTDBCore

/// Key identity by code units at every layer of the data model: Swift's `String ==` calls each of
/// these pairs equal, Firebase does not.
struct CodeUnitStringTests {
    static let pairs: [(String, String)] = [
        ("\u{E9}", "e\u{301}"),  // é composed and decomposed
        ("Kate", "\u{212A}ate"),  // the Kelvin sign is canonically K
        ("\u{212B}", "\u{C5}"),  // the angstrom sign and Å
        ("a;", "a\u{37E}"),  // the Greek question mark is canonically a semicolon
    ]

    @Test(arguments: 0..<4)
    func equivalentSpellingsAreDifferent(_ index: Int) {
        let (a, b) = Self.pairs[index]
        #expect(a == b, "Swift's own == calls them equal (the reason for this type)")
        #expect(CodeUnitString(a) != CodeUnitString(b))
        #expect(Set([CodeUnitString(a), CodeUnitString(b)]).count == 2)
        #expect(!CodeUnitString.equal(a, b))
        #expect(ChildKey(a) != ChildKey(b))
        #expect(Set([ChildKey(a), ChildKey(b)]).count == 2)
        #expect(Path(segments: ["users", a]) != Path(segments: ["users", b]))
        #expect(JSONValue.string(a) != JSONValue.string(b))
        #expect(Node(.string(a)) != Node(.string(b)))
        #expect(Priority.string(a) != Priority.string(b))
    }

    @Test func parsedObjectsKeepBothKeys() throws {
        let text = #"{"\u00e9": 1, "e\u0301": 2}"#
        let json = try JSONParser.parse(text)
        #expect(json.objectValue?.count == 2)
        let node = try Node(json: json, at: .root)
        #expect(node.childCount == 2)
        #expect(node.child(ChildKey("\u{E9}")) == Node(.number(.int(1))))
        #expect(node.child(ChildKey("e\u{301}")) == Node(.number(.int(2))))
        #expect(node.exportJSON.objectValue?.count == 2)
        #expect(node.plainJSON().objectValue?.count == 2)
        #expect(node.shallowJSON.objectValue?.count == 2)
        #expect(try JSONParser.parseNode(node.exportJSONString) == node)
        #expect(try JSONParser.parse(node.exportJSON.jsonString) == node.exportJSON)
    }

    /// Equality reads eight bytes at a time: strings that differ in one byte only, at any offset
    /// of lengths around a word (small strings and stored ones), are told apart.
    @Test func aDifferenceAtAnyOffsetIsFound() {
        for length in [1, 7, 8, 9, 15, 16, 17, 24, 33] {
            let base = String(repeating: "k", count: length)
            #expect(CodeUnitString.equal(base, String(repeating: "k", count: length)))
            #expect(!CodeUnitString.equal(base, base + "k"))
            for offset in 0..<length {
                var bytes = Array(base.utf8)
                bytes[offset] = UInt8(ascii: "j")
                #expect(!CodeUnitString.equal(base, String(decoding: bytes, as: UTF8.self)), "\(length) \(offset)")
            }
        }
    }

    @Test func stringOperationsWorkOnCodeUnits() {
        #expect(CodeUnitString.hasPrefix("cafe\u{301}", "cafe"))
        #expect(!CodeUnitString.hasPrefix("cafe\u{301}", "caf\u{E9}"))
        #expect(CodeUnitString.hasSuffix("cafe\u{301}", "\u{301}"))
        #expect(!CodeUnitString.hasSuffix("cafe\u{301}", "\u{E9}"))
        // Longer than the string, empty, the whole string, and past the 8-byte words compared at once.
        #expect(!CodeUnitString.hasPrefix("ab", "abc") && !CodeUnitString.hasSuffix("bc", "abc"))
        #expect(CodeUnitString.hasPrefix("ab", "") && CodeUnitString.hasSuffix("", ""))
        #expect(CodeUnitString.hasPrefix("abc", "abc") && CodeUnitString.hasSuffix("abc", "abc"))
        #expect(CodeUnitString.hasPrefix("users/0123456789/x", "users/012345678"))
        #expect(!CodeUnitString.hasPrefix("users/0123456789/x", "users/012345679"))
        #expect(CodeUnitString.hasSuffix("x/users/0123456789", "users/0123456789"))
        #expect(!CodeUnitString.hasSuffix("x/users/0123456789", "users/0123456788"))
        #expect(CodeUnitString.contains("cafe\u{301}s", "e\u{301}"))
        #expect(!CodeUnitString.contains("cafe\u{301}s", "\u{E9}"))
        #expect(CodeUnitString.contains("x", ""))
        #expect(CodeUnitString.replacing("a", with: "bb", in: "banana") == "bbbnbbnbb")
        #expect(CodeUnitString.replacing("e\u{301}", with: "E", in: "cafe\u{301} cafe\u{301}") == "cafE cafE")
        #expect(CodeUnitString.replacing("", with: "E", in: "abc") == "abc")
        #expect(CodeUnitString("a") < CodeUnitString("b"))
        #expect(CodeUnitString("\u{FFFD}") > CodeUnitString("\u{1F600}"), "a surrogate pair sorts below U+FFFD")
    }
}
