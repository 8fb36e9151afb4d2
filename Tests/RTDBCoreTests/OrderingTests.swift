import Testing

@testable import RTDBCore

@Suite struct OrderingTests {
    private func sortedKeys(_ keys: [String]) -> [String] {
        keys.map { ChildKey($0) }.sorted().map(\.string)
    }

    @Test func integerKeysFirstNumerically() {
        #expect(sortedKeys(["b", "10", "a", "9", "01", "-1"]) == ["-1", "01", "9", "10", "a", "b"])
    }

    @Test func equalIntegersShorterFirst() {
        #expect(sortedKeys(["007", "7", "07"]) == ["7", "07", "007"])
        #expect(sortedKeys(["1", "01", "2"]) == ["1", "01", "2"])
    }

    @Test func int32RangeDecidesIntegerness() {
        // 2147483648 is beyond Int32, so it is a string key and sorts after every integer key.
        #expect(
            sortedKeys(["2147483648", "2147483647", "-2147483648", "a"]) == [
                "-2147483648", "2147483647", "2147483648", "a",
            ])
        #expect(ChildKey("2147483647").intValue == Int32.max)
        #expect(ChildKey("-2147483649").intValue == nil)
        #expect(ChildKey("1.5").intValue == nil)
        #expect(ChildKey("-").intValue == nil)
        #expect(ChildKey("+1").intValue == nil)
        // Firebase keys "1e3" and " 1" are strings.
        #expect(sortedKeys(["1e3", "2"]) == ["2", "1e3"])
    }

    @Test func stringKeysByUTF16CodeUnits() {
        // U+FF21 (Ａ, in U+E000–U+FFFF) sorts after U+1F600 (😀, a surrogate pair in UTF-16),
        // although its code point is smaller. Swift's String < gets this wrong.
        #expect(sortedKeys(["\u{FF21}", "😀"]) == ["😀", "\u{FF21}"])
        #expect(UTF16Order.compare("\u{FF21}", "😀") > 0)
        // Canonically equivalent strings differ in UTF-16 order; Swift's == calls them equal.
        let composed = "\u{E9}"
        let decomposed = "e\u{301}"
        #expect(UTF16Order.compare(composed, decomposed) > 0)
        #expect(ChildKey(composed) != ChildKey(decomposed))
        #expect(sortedKeys(["b", "B", "a", "A", "_", "-"]) == ["-", "A", "B", "_", "a", "b"])
        #expect(sortedKeys(["ab", "a", "abc"]) == ["a", "ab", "abc"])
    }

    /// Keys that share their first eight bytes, end inside them, or hold bytes from 0xEE up (where
    /// byte order and UTF-16 order part) are ordered as the code units order them, whichever way
    /// the comparison goes (the eight-byte prefix, or the full walk).
    @Test func keysAreOrderedByTheirCodeUnitsAroundTheEightBytePrefix() {
        let pieces = ["a", "b", "z", "0", "9", "-", "é", "e\u{301}", "\u{FF21}", "\u{E000}", "😀", "\u{7F}", "~"]
        var random = SeededRandom(seed: 33)
        var keys = ["", "abcdefgh", "abcdefghi", "abcdefgh\u{FF21}", "abcdefgh😀", "abcdefg", "12", "012", "-3"]
        for _ in 0..<150 {
            let length = Int(random.next() % 12) + 1
            keys.append((0..<length).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined())
        }
        func reference(_ a: ChildKey, _ b: ChildKey) -> Int {
            switch (a.intValue, b.intValue) {
            case (.some, _), (_, .some): return ChildKey.compare(a, b)  // integers: the tests above
            case (nil, nil):
                let (x, y) = (Array(a.string.utf16), Array(b.string.utf16))
                if x == y { return 0 }
                return x.lexicographicallyPrecedes(y) ? -1 : 1
            }
        }
        let made = keys.map { ChildKey($0) }
        for a in made {
            for b in made {
                let order = ChildKey.compare(a, b)
                #expect(order.signum() == reference(a, b), "\(Array(a.string.utf16)) against \(Array(b.string.utf16))")
                #expect((a == b) == (order == 0))
            }
        }
    }

    /// A key compared with another's UTF-8 bytes (a packed first list's keys are searched so)
    /// orders them as the two keys do: integers, equal integers written longer, strings past the
    /// bytes where byte and UTF-16 order part, and the sentinels.
    @Test func aKeyComparesWithKeyBytesAsWithTheKey() {
        let pieces = ["a", "z", "0", "9", "-", "é", "\u{FF21}", "\u{E000}", "😀", "~"]
        var random = SeededRandom(seed: 57)
        var keys = ["7", "07", "007", "-1", "10", "2147483647", "2147483648", "-", "1e3", "a", "ab", "\u{FF21}", "😀"]
        for _ in 0..<120 {
            let length = Int(random.next() % 6) + 1
            keys.append((0..<length).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined())
        }
        let made = keys.map { ChildKey($0) }
        for a in made + [.min, .max] {
            for b in made {
                let bytes = Array(b.string.utf8)
                let order = bytes.withUnsafeBufferPointer { a.compare(toKeyBytes: $0) }
                #expect(order.signum() == ChildKey.compare(a, b).signum(), "\(a) against \(b)")
            }
        }
    }

    @Test func sentinelsBoundEveryKey() {
        let keys = ["a", "1", "zzz", "-5"].map { ChildKey($0) }
        for key in keys {
            #expect(ChildKey.min < key)
            #expect(key < ChildKey.max)
        }
        #expect(ChildKey("[MAX_KEY]") == ChildKey.max)
        #expect(ChildKey("[MIN_NAME]") == ChildKey.min)
    }

    @Test func valueOrder() throws {
        let values: [JSONValue] = [["x": 1], "x", 2, true, "a", 1.5, false, nil]
        let nodes = try values.map { try Node(json: $0) }
        let sorted = nodes.sorted { Node.compareValues($0, $1) < 0 }
        #expect(sorted.map { $0.plainJSON() } == [nil, false, true, 1.5, 2, "a", "x", ["x": 1]])
        #expect(Node.compareValues(try Node(json: ["a": 1]), try Node(json: ["b": 2])) == 0)
        #expect(Node.compareValues(try Node(json: 2), try Node(json: 2.0)) == 0)
    }

    @Test func valueIndexTiesByKey() throws {
        let data = try Node(json: ["b": 1, "a": 1, "c": 0, "10": "x", "2": false])
        let ordered = QueryParams(index: .value, limit: 10).selectedChildren(of: data).map(\.key.string)
        #expect(ordered == ["2", "c", "a", "b", "10"])
    }

    @Test func priorityOrder() throws {
        let data = try Node(json: [
            "a": [".value": 1, ".priority": "s"],
            "b": [".value": 1, ".priority": 5],
            "c": 1,
            "d": [".value": 1, ".priority": 2.5],
            "e": [".value": 1, ".priority": "a"],
        ])
        let ordered = QueryParams(index: .priority, limit: 10).selectedChildren(of: data).map(\.key.string)
        #expect(ordered == ["c", "d", "b", "e", "a"])
    }

    @Test func childIndexOrder() throws {
        let data = try Node(json: [
            "u1": ["score": 30, "name": "a"], "u2": ["score": 10], "u3": ["name": "no score"],
            "u4": ["score": "high"], "u5": ["score": 10],
        ])
        let ordered = QueryParams(index: .child(Path("score")), limit: 10).selectedChildren(of: data).map(\.key.string)
        #expect(ordered == ["u3", "u2", "u5", "u1", "u4"])
    }

    @Test func keyIndexOrder() throws {
        let data = try Node(json: ["b": 1, "10": 1, "a": 1, "9": 1])
        let ordered = QueryParams(index: .key, limit: 10).selectedChildren(of: data).map(\.key.string)
        #expect(ordered == ["9", "10", "a", "b"])
    }
}
