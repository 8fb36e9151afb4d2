import Foundation
import Testing

@testable import RTDBCore

@Suite struct NodeTests {
    @Test func importsAndExportsPlainJSON() throws {
        let node = try Node(jsonString: #"{"b":{"c":true},"a":1,"n":null,"e":{}}"#)
        #expect(node.childCount == 2)
        #expect(node.plainJSON().jsonString == #"{"a":1,"b":{"c":true}}"#)
        #expect(node.child("b").child("c").leafValue == .bool(true))
        #expect(node.child(at: Path("b/c")) == Node(.bool(true)))
        #expect(node.child(at: Path("b/x/y")).isEmpty)
        #expect(try Node(json: [:]).isEmpty)
        #expect(try Node(json: ["a": ["b": nil]]).isEmpty)
    }

    @Test func integersKeepTheirExactValue() throws {
        let big: Int64 = 9_007_199_254_740_992  // 2^53
        let node = try Node(json: ["n": .int(big), "i": 5, "d": 5.5])
        #expect(node.exportJSON.jsonString == #"{"d":5.5,"i":5,"n":9007199254740992}"#)
        #expect(node.child("n").leafValue == .number(.int(big)))
    }

    @Test func exportFormatWithPriorities() throws {
        let json: JSONValue = [
            "a": [".value": "v", ".priority": 10], "b": ["c": 1, ".priority": "p"], ".priority": 1.5,
        ]
        let node = try Node(json: json)
        #expect(node.priority == .number(.double(1.5)))
        #expect(node.child("a").priority == .number(.int(10)))
        #expect(node.child("a").leafValue == .string("v"))
        #expect(node.child("b").priority == .string("p"))
        #expect(
            node.exportJSON.jsonString
                == #"{"a":{".value":"v",".priority":10},"b":{"c":1,".priority":"p"},".priority":1.5}"#)
        #expect(node.plainJSON().jsonString == #"{"a":"v","b":{"c":1}}"#)
        #expect(try Node(json: node.exportJSON) == node)
    }

    @Test func arraysBecomeIndexedChildren() throws {
        let node = try Node(json: ["x", nil, "z"])
        #expect(node.children.keys.map(\.string) == ["0", "2"])
        #expect(node.plainJSON(arrays: true) == ["x", nil, "z"])
        #expect(node.plainJSON() == ["0": "x", "2": "z"])
        // Sparse keys are not arrays: the largest key must be below twice the count.
        let sparse = try Node(json: ["0": 1, "5": 2])
        #expect(sparse.plainJSON(arrays: true) == ["0": 1, "5": 2])
    }

    @Test func invalidData() {
        #expect(throws: ValidationError.valueWithChildren(path: "/")) { try Node(json: [".value": 1, "a": 2]) }
        #expect(throws: ValidationError.invalidKeyCharacter(key: "a.b", character: ".")) { try Node(json: ["a.b": 1]) }
        #expect(throws: ValidationError.self) { try Node(json: ["a": [".priority": true, "b": 1]]) }
        #expect(throws: ValidationError.nonFiniteNumber(path: "/x")) { try Node(json: ["x": .double(.nan)]) }
        #expect(throws: ValidationError.unknownServerValue(path: "/t", placeholder: #"{".sv":"later"}"#)) {
            try Node(json: ["t": [".sv": "later"]])
        }
        let big = String(repeating: "x", count: Validation.maxStringBytes + 1)
        #expect(throws: ValidationError.stringTooLong(path: "/s", bytes: Validation.maxStringBytes + 1)) {
            try Node(json: ["s": .string(big)])
        }
    }

    @Test func updatesShareAndReplace() throws {
        let node = try Node(json: ["a": ["b": 1, "c": 2], "d": 3])
        let updated = node.updating(at: Path("a/b"), with: Node(.number(.int(9))))
        #expect(updated.plainJSON() == ["a": ["b": 9, "c": 2], "d": 3])
        #expect(node.plainJSON() == ["a": ["b": 1, "c": 2], "d": 3], "the original is unchanged")
        let removed = updated.updating(at: Path("a/b"), with: .empty).updating(at: Path("a/c"), with: .empty)
        #expect(removed.plainJSON() == ["d": 3], "an emptied parent disappears")
        #expect(removed.updating(at: Path("d"), with: .empty).isEmpty)
        #expect(node.updating(at: .root, with: Node(.bool(true))) == Node(.bool(true)))
        let overLeaf = Node(.string("leaf"), priority: .number(1)).updating(at: Path("x/y"), with: Node(.bool(true)))
        #expect(overLeaf.plainJSON() == ["x": ["y": true]])
        #expect(overLeaf.priority == .number(1))
    }

    @Test func priorityWrites() throws {
        let node = try Node(json: ["a": 1])
        let withPriority = node.updating(at: Path("a/.priority"), with: Node(.string("p")))
        #expect(withPriority.child("a").priority == .string("p"))
        #expect(withPriority.child(at: Path("a/.priority")) == Node(.string("p")))
        #expect(node.updating(at: Path("z/.priority"), with: Node(.number(1))) == node, "no priority on empty nodes")
        #expect(Node.empty.withPriority(.number(1)).priority == nil)
    }

    @Test func fromSwiftValues() throws {
        let node = try Node(
            any: ["name": "Morgan", "age": 33, "score": 1.5, "online": true, "tags": ["a", "b"]] as [String: Any])
        #expect(
            node.plainJSON(arrays: true) == [
                "age": 33, "name": "Morgan", "online": true, "score": 1.5, "tags": ["a", "b"],
            ])
        #expect(try Node(any: nil).isEmpty)
        #expect(try Node(any: Optional<Int>.none as Any).isEmpty)
        struct Unsupported {}
        #expect(throws: ValidationError.self) { try Node(any: Unsupported()) }
    }

    /// The exact-type fast path and the general one agree: Foundation's bridged values, nested
    /// optionals, homogeneous containers, and the path of a value that cannot be stored.
    @Test func fromFoundationAndOddlyTypedValues() throws {
        let decoded = try JSONSerialization.jsonObject(
            with: Data(#"{"b":true,"n":1,"d":1.5,"s":"x","a":[1,null]}"#.utf8))
        let converted = try Node(any: decoded).plainJSON(arrays: true)
        #expect(converted == ["a": [1], "b": true, "d": 1.5, "n": 1, "s": "x"], "\(converted)")
        let nested: [String: Any] = [
            "some": Optional<Any>.some(Optional<Int>.some(4) as Any) as Any, "none": Optional<Int>.none as Any,
        ]
        #expect(try Node(any: nested).plainJSON() == ["some": 4])
        #expect(try Node(any: ["x": 1, "y": 2] as [String: Int]).plainJSON() == ["x": 1, "y": 2])
        #expect(try Node(any: [["k": "v"]] as [[String: String]]).plainJSON(arrays: true) == [["k": "v"]])
        #expect(try Node(any: NSString(string: "bridged")).plainJSON() == "bridged")
        struct Unsupported {}
        #expect(
            throws: ValidationError.invalidValue(path: "/a/b/1", reason: "values of type Unsupported cannot be stored")
        ) {
            try Node(any: ["a": ["b": [1, Unsupported()] as [Any]] as [String: Any]] as [String: Any])
        }
    }

    @Test func sizeEstimateGrowsWithContent() throws {
        let small = try Node(json: ["a": 1])
        let large = try Node(json: ["a": 1, "b": .string(String(repeating: "x", count: 1000))])
        #expect(Node.empty.estimatedSize == 4)
        #expect(small.estimatedSize > 4)
        #expect(large.estimatedSize > small.estimatedSize + 1000)
        let export = large.exportJSON.jsonString.utf8.count
        #expect(abs(large.estimatedSize - export) < export / 10)
    }
}
