import Testing

@testable import RTDBCore

/// Vectors captured from real clients' frames; the algorithm is in
/// docs/wire-protocol.md#the-node-hash.
@Suite struct NodeHashTests {
    @Test(arguments: [
        (#"5"#, "w28swksk9+tXf5jEdS9R5oSFAv8="),
        (#"{"a":1,"b":"x","c":true}"#, "5NMwFJ/2lP59EMQ9uw86PxHcGXU="),
        (#"{".value":"v",".priority":10}"#, "tBptLayRCbZ2IoT6ZtrY/dV3pBg="),
        (#"null"#, ""),
        (#""a""#, "eMfSk0nU+CieTkCbO5r7cKNp7qU="),
        (#"1"#, "YPVfR2bXt/lcDjiQZ8pOkAd3qkQ="),
        (#"true"#, "E5z61QM0lN/U2WsOnusszCTkR8M="),
        (#"{"x":1}"#, "LkoDN24bwRWG2p4jGZoe8M/Acf8="),
        (#"{".value":"a",".priority":1}"#, "Mh5R9Rxk6SEP+0a5KglrpE+fD44="),
    ])
    func knownVectors(json: String, expected: String) throws {
        #expect(try Node(jsonString: json).hashString == expected)
    }

    @Test func representation() throws {
        #expect(try Node(jsonString: "1").hashRepresentation == "number:3ff0000000000000")
        #expect(try Node(jsonString: "-0").hashRepresentation == "number:8000000000000000")
        #expect(try Node(jsonString: "1.0").hashString == (try Node(jsonString: "1").hashString))
        #expect(
            try Node(jsonString: #"{".value":"v",".priority":"p"}"#).hashRepresentation == "priority:string:p:string:v")
        let hashOfOne = try Node(jsonString: "1").hashString
        #expect(try Node(jsonString: #"{"x":1}"#).hashRepresentation == ":x:" + hashOfOne)
    }

    @Test func childrenHashInPriorityOrder() throws {
        let node = try Node(jsonString: #"{"a":{".value":1,".priority":2},"b":{".value":1,".priority":1}}"#)
        let a = node.child("a").hashString
        let b = node.child("b").hashString
        #expect(node.hashRepresentation == ":b:\(b):a:\(a)")
    }

    @Test func anyChangeChangesTheHash() throws {
        let base = try Node(jsonString: #"{"a":{"b":1,"c":"x"}}"#)
        let variants = [
            #"{"a":{"b":2,"c":"x"}}"#, #"{"a":{"b":1,"c":"y"}}"#, #"{"a":{"b":1,"c":"x","d":false}}"#,
            #"{"a":{"b":1,"c":"x",".priority":1}}"#, #"{"a":{"b":"1","c":"x"}}"#,
        ]
        for variant in variants {
            #expect(try Node(jsonString: variant).hashString != base.hashString, "\(variant)")
        }
    }
}
