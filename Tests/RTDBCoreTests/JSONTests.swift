import Testing

@testable import RTDBCore

@Suite struct JSONTests {
    @Test func roundTripsCompactly() throws {
        let text = #"{"a":1,"b":[true,false,null],"c":"x\"y\\z\n","d":-2.5,"e":{}}"#
        #expect(try JSONParser.parse(text).jsonString == text)
    }

    @Test func integersStayIntegers() throws {
        #expect(try JSONParser.parse("5") == .number(.int(5)))
        #expect(try JSONParser.parse("5").jsonString == "5")
        #expect(try JSONParser.parse("5.0").jsonString == "5")
        #expect(try JSONParser.parse("5.5").jsonString == "5.5")
        #expect(try JSONParser.parse("9007199254740993") == .number(.int(9_007_199_254_740_993)))
        #expect(try JSONParser.parse("9007199254740993").jsonString == "9007199254740993")
        #expect(try JSONParser.parse("1e3") == .number(.double(1000)))
        #expect(try JSONParser.parse("-0").jsonString == "-0")
        #expect(try JSONParser.parse("1.5e300").jsonString == "1.5e+300")
    }

    /// Strings of bytes that are not UTF-8 are refused, wherever they stand; every valid
    /// character, of one to four bytes, is kept as written.
    @Test(
        arguments: [
            [0x80], [0xC0, 0x80], [0xC3], [0xE2, 0x82], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xFF],
            [0x61, 0xE9, 0x62],
        ] as [[UInt8]])
    func invalidUTF8InAStringIsRefused(_ bad: [UInt8]) {
        for text in [[0x22] + bad + [0x22], Array(#"{""#.utf8) + bad + Array(#"":1}"#.utf8)] {
            #expect(throws: JSONParseError.self) { try JSONParser.parse(bytes: text) }
        }
    }

    @Test func validUTF8InAStringIsKept() throws {
        for string in ["é", "€", "😀", "\u{FFFF}", "\u{E000}a\u{10FFFF}", "plain"] {
            let bytes = [0x22] + Array(string.utf8) + [0x22]
            #expect(try JSONParser.parse(bytes: bytes) == .string(string))
            #expect(
                try JSONParser.parse(bytes: Array(#"{""#.utf8) + Array(string.utf8) + Array(#"":1}"#.utf8))["\(string)"]
                    == 1)
        }
    }

    @Test func unicodeEscapes() throws {
        #expect(try JSONParser.parse(#""\u00e9\ud83d\ude00""#) == "é😀")
        #expect(JSONValue.string("\u{01}").jsonString == #""\u0001""#)
        #expect(try JSONParser.parse(JSONValue.string("tab\tquote\"").jsonString) == "tab\tquote\"")
    }

    @Test(arguments: [
        "", "{", "[1,]", "{\"a\":}", "01", "1.", "-", "tru", "\"abc", "{\"a\" 1}", "[1 2]", "\"\\x\"",
        "\"\\ud800\"", "1 2", "{'a':1}", "NaN", "\"a\u{01}\"",
    ])
    func rejectsMalformedInput(text: String) {
        #expect(throws: JSONParseError.self) { try JSONParser.parse(text) }
    }

    /// The check that lets a stored write go out unparsed passes exactly what the parser reads.
    @Test(arguments: [
        "", "{", "[1,]", "{\"a\":}", "01", "1.", "-", "tru", "\"abc", "{\"a\" 1}", "[1 2]", "\"\\x\"",
        "\"\\ud800\"", "1 2", "{'a':1}", "NaN", "\"a\u{01}\"", "1e999", "[1]]", "{\"a\":1}}", " ", "nul",
    ])
    func validationRefusesWhatParsingRefuses(text: String) {
        #expect(throws: JSONParseError.self) { try JSONParser.validate(text) }
        #expect(!JSONParser.isDocument(text))
    }

    @Test func validationPassesWhatParsingReads() {
        for text in [
            #"{"a":1,"b":[true,false,null],"c":"x\"y\\z\n","d":-2.5,"e":{}}"#, " 5 ", "null", #""é\u00e9""#, "[]",
            "{}", "-0", "1.5e300", #"{"n":{".sv":"timestamp"}}"#,
        ] {
            #expect(throws: Never.self) { try JSONParser.validate(text) }
        }
        #expect(JSONParser.isDocument(" {\"a\":1}", object: true))
        for text in ["[1]", "1", "null", #""{}""#] { #expect(!JSONParser.isDocument(text, object: true)) }
        let deep = String(repeating: "[", count: 1001) + String(repeating: "]", count: 1001)
        #expect(!JSONParser.isDocument(deep))
        let deepObject = String(repeating: #"{"a":"#, count: 1001) + "1" + String(repeating: "}", count: 1001)
        #expect(!JSONParser.isDocument(deepObject))
        let ok = String(repeating: "[", count: 1000) + String(repeating: "]", count: 1000)
        #expect(JSONParser.isDocument(ok))
    }

    /// Random edits of valid documents (bytes cut, doubled, replaced): the check and the parser
    /// agree on every one.
    @Test func validationAgreesWithParsingOnEditedText() {
        var generator = SeededRandom(seed: 33)
        let seeds = [
            #"{"a":1,"b":[true,false,null],"c":"x\"y\\z\n","d":-2.5e3,"e":{"f":[{},[]]}}"#,
            #"{"n":{".sv":"timestamp"},".priority":"é😀\ud83d\ude00"}"#, "[0,-0.5,1E+2,\"\\u0041\"]",
        ]
        let alphabet = Array(#"{}[]:,"\-+.0123456789eEtrufalsn x"#.utf8)
        for _ in 0..<4_000 {
            var bytes = Array(seeds[Int.random(in: 0..<seeds.count, using: &generator)].utf8)
            for _ in 0..<Int.random(in: 1...3, using: &generator) where !bytes.isEmpty {
                let at = Int.random(in: 0..<bytes.count, using: &generator)
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: bytes.remove(at: at)
                case 1: bytes.insert(bytes[at], at: at)
                default: bytes[at] = alphabet[Int.random(in: 0..<alphabet.count, using: &generator)]
                }
            }
            let text = String(decoding: bytes, as: UTF8.self)
            let parses = (try? JSONParser.parse(text)) != nil
            #expect(JSONParser.isDocument(text) == parses, "\(text)")
        }
    }

    @Test func errorNamesTheOffset() {
        do {
            _ = try JSONParser.parse("[1, 2, x]")
            Issue.record("expected an error")
        } catch {
            #expect(error.offset == 7)
            #expect(error.description.contains("byte 7"))
        }
    }

    @Test func nestingLimit() {
        let deep = String(repeating: "[", count: 1001) + String(repeating: "]", count: 1001)
        #expect(throws: JSONParseError.self) { try JSONParser.parse(deep) }
        let ok = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        #expect(throws: Never.self) { try JSONParser.parse(ok) }
    }

    @Test func duplicateKeysKeepTheLast() throws {
        #expect(try JSONParser.parse(#"{"a":1,"a":2}"#) == ["a": 2])
    }

    /// A repeated key keeps its first place and its last value, in a small object (scanned) and
    /// past the size where the parser moves to the ordered dictionary.
    @Test(arguments: [3, JSONParser.smallObject - 1, JSONParser.smallObject, JSONParser.smallObject + 5])
    func aRepeatedKeyKeepsItsPlaceAndTakesTheLastValue(_ count: Int) throws {
        let keys = (0..<count).map { "key\($0)" }
        var members = keys.enumerated().map { #""\#($0.element)":\#($0.offset)"# }
        members.append(#""key1":"again""#)
        members.append(#""\#(keys[count - 1])":"last""#)
        guard case .object(let parsed) = try JSONParser.parse("{" + members.joined(separator: ",") + "}") else {
            Issue.record("not an object")
            return
        }
        #expect(parsed.keys.map(\.string) == keys)
        #expect(parsed["key1"] == "again")
        #expect(parsed[CodeUnitString(keys[count - 1])] == "last")
        #expect(parsed["key0"] == 0)
    }

    /// Bytes that are not UTF-8 are found at every offset of a longer string (which is read eight
    /// bytes at a time), and escapes are written at every offset too.
    @Test func longStringsAreCheckedAndEscapedAtEveryOffset() throws {
        let plain = Array("abcdefghijklmnopqrstuvwxyz".utf8)
        for offset in 0...plain.count {
            var bad = plain
            bad.insert(0xFF, at: offset)
            #expect(throws: JSONParseError.self) { try JSONParser.parse(bytes: [0x22] + bad + [0x22]) }
            var accented = plain
            accented.insert(contentsOf: Array("é".utf8), at: offset)
            let text = String(decoding: accented, as: UTF8.self)
            #expect(try JSONParser.parse(bytes: [0x22] + accented + [0x22]) == .string(text))
            for escaped in ["\"", "\\", "\n", "\u{01}", "\u{7F}"] {
                var string = String(decoding: plain, as: UTF8.self)
                string.insert(contentsOf: escaped, at: string.index(string.startIndex, offsetBy: offset))
                #expect(try JSONParser.parse(JSONValue.string(string).jsonString) == .string(string))
            }
        }
        #expect(JSONValue.string("a\"b\u{7F}").jsonString == #""a\"b\u007f""#)
    }

    @Test func prefixParsing() throws {
        let (value, rest) = try JSONParser.parsePrefix(#""a,b","key""#)
        #expect(value == "a,b")
        #expect(rest == #","key""#)
    }

    @Test func prettyPrinting() throws {
        #expect(try JSONParser.parse(#"{"a":[1]}"#).prettyJSONString == "{\n  \"a\": [\n    1\n  ]\n}")
    }
}
