import Testing

@testable import RTDBCore

@Suite struct ServerValuePlaceholderTests {
    let now = UnixTime(millisecondsSince1970: 1_724_150_000_000)

    @Test func timestampInsideValues() throws {
        let write = try Node(json: ["online": true, "lastOnline": [".sv": "timestamp"]])
        #expect(write.containsServerValues)
        let resolved = write.resolvingServerValues(existing: .empty, now: now)
        #expect(resolved.plainJSON() == ["lastOnline": .int(now.millisecondsSince1970), "online": true])
        #expect(!resolved.containsServerValues)
        #expect(write.exportJSON.jsonString == #"{"lastOnline":{".sv":"timestamp"},"online":true}"#)
    }

    @Test func incrementUsesTheExistingNumber() throws {
        let write = try Node(json: [".sv": ["increment": 5]])
        #expect(write.resolvingServerValues(existing: Node(.number(10)), now: now) == Node(.number(.int(15))))
        #expect(write.resolvingServerValues(existing: .empty, now: now) == Node(.number(5)))
        #expect(
            write.resolvingServerValues(existing: Node(.string("x")), now: now) == Node(.number(5)),
            "non-number counts as 0")
        #expect(write.resolvingServerValues(existing: try Node(json: ["a": 1]), now: now) == Node(.number(5)))
    }

    @Test func incrementArithmetic() throws {
        let int = try Node(json: [".sv": ["increment": 1]])
        let resolved = int.resolvingServerValues(existing: Node(.number(.int(9_007_199_254_740_992))), now: now)
        #expect(resolved.leafValue == .number(.int(9_007_199_254_740_993)), "integers stay exact past 2^53")
        #expect(resolved.exportJSON.jsonString == "9007199254740993")
        let overflow = int.resolvingServerValues(existing: Node(.number(.int(.max))), now: now)
        #expect(overflow.leafValue == .number(.double(Double(Int64.max) + 1)))
        let fractional = try Node(json: [".sv": ["increment": 0.5]]).resolvingServerValues(
            existing: Node(.number(2)), now: now)
        #expect(fractional.leafValue == .number(.double(2.5)))
    }

    /// The data a write replaces is asked for only when the write holds an increment.
    @Test func theReplacedDataIsLookedUpOnlyForAnIncrement() throws {
        var lookups = 0
        let plain = try Node(json: ["device": "phone", "n": 3])
        let kept = try plain.resolvingServerValues(
            existingAt: {
                lookups += 1
                return .empty
            }, now: now, at: Path("a"))
        #expect(kept == plain)
        #expect(lookups == 0)
        // A timestamp does not read the data it replaces either.
        let stamped = try Node(json: ["at": [".sv": "timestamp"]]).resolvingServerValues(
            existingAt: {
                lookups += 1
                return .empty
            }, now: now, at: Path("a"))
        #expect(stamped.plainJSON() == ["at": .int(now.millisecondsSince1970)])
        #expect(lookups == 0)
        let increment = try Node(json: ["n": [".sv": ["increment": 2]]])
        let existing = try Node(json: ["n": 40])
        let resolved = try increment.resolvingServerValues(
            existingAt: {
                lookups += 1
                return existing
            }, now: now, at: Path("a"))
        #expect(resolved.plainJSON() == ["n": 42])
        #expect(lookups == 1)
    }

    @Test func nestedIncrementsFindTheirOwnLocation() throws {
        let write = try Node(json: ["a": ["n": [".sv": ["increment": 2]]], "b": [".sv": ["increment": 3]]])
        let existing = try Node(json: ["a": ["n": 40], "b": 1, "c": 7])
        #expect(write.resolvingServerValues(existing: existing, now: now).plainJSON() == ["a": ["n": 42], "b": 4])
    }

    @Test func priorityTimestamps() throws {
        let write = try Node(json: ["x": 1, ".priority": [".sv": "timestamp"]])
        #expect(write.priority == .serverValue(.timestamp))
        #expect(
            write.resolvingServerValues(existing: .empty, now: now).priority == .number(.int(now.millisecondsSince1970))
        )
    }

    @Test func unknownPlaceholdersAreErrors() {
        for placeholder: JSONValue in [
            [".sv": "later"], [".sv": ["decrement": 1]], [".sv": ["increment": "1"]], [".sv": 5],
        ] {
            #expect(throws: ValidationError.self) { try Node(json: ["a": placeholder]) }
        }
    }

    @Test func placeholderJSON() {
        #expect(ServerValuePlaceholder.timestamp.json.jsonString == #"{".sv":"timestamp"}"#)
        #expect(ServerValuePlaceholder.increment(3).json.jsonString == #"{".sv":{"increment":3}}"#)
    }

    @Test func anIncrementWhoseResultIsNotFiniteIsRefusedWithItsPath() throws {
        let write = try Node(json: ["a": ["b": [".sv": ["increment": 1e308]]], "c": [".sv": "timestamp"]])
        let existing = try Node(json: ["a": ["b": 1e308]])
        #expect(throws: ValidationError.nonFiniteResult(path: "/n/a/b")) {
            try write.resolvingServerValues(existing: existing, now: UnixTime(millisecondsSince1970: 5), at: Path("n"))
        }
        let fine = try write.resolvingServerValues(
            existing: try Node(json: ["a": ["b": 1]]), now: UnixTime(millisecondsSince1970: 5), at: Path("n"))
        #expect(fine.child(at: Path("a/b")) == Node(.number(.double(1e308 + 1))))
        #expect(JSONValue.number(.double(.infinity)).jsonString == "null", "JSON has no infinity: printed as JS does")
        #expect(JSONValue.number(.double(.nan)).jsonString == "null")
    }
}
