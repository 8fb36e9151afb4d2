import Testing

@testable import RTDBCore

/// The trusted fast paths read what the validating reader reads.
@Suite struct TrustedNodeParsingTests {
    static let documents = [
        #"{"a":1,"b":{"c":"x","d":[true,false,null,2.5]},"e":null,"f":{}}"#,
        #"{".priority":"p","x":{".value":5,".priority":2},"y":{".priority":1.5,"z":-0.0}}"#,
        #"{"9":1,"10":2,"-1":3,"a":4,"01":5}"#,
        #"["x",null,{"y":1}]"#,
        #""just a string""#, "42", "null", "{}", #"{"esc":"a\"b\\c\u00e9\n"}"#,
    ]

    @Test(arguments: documents) func bothTrustedReadersMatchTheValidatingOne(_ text: String) throws {
        let expected = try Node(jsonString: text)
        let fromValue = Node(trustedJSON: try JSONParser.parse(text))
        let direct = try JSONParser.parseNode(text)
        #expect(fromValue == expected)
        #expect(direct == expected)
        #expect(direct.priority == expected.priority)
        #expect(direct.hashString == expected.hashString)
    }

    @Test func malformedTextIsStillAnError() {
        #expect(throws: JSONParseError.self) { try JSONParser.parseNode(#"{"a":}"#) }
        #expect(throws: JSONParseError.self) { try JSONParser.parseNode("1 2") }
    }
}
