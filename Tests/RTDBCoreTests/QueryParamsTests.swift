import Testing

@testable import RTDBCore

@Suite struct QueryParamsTests {
    let scores = try! Node(json: [
        "bruhathkayosaurus": 55, "lambeosaurus": 21, "linhenykus": 80, "pterodactyl": 93, "stegosaurus": 5,
        "triceratops": 22,
    ])

    private func keys(_ params: QueryParams, _ node: Node) -> [String] {
        params.selectedChildren(of: node).map(\.key.string)
    }

    @Test func limitToLastByValue() {
        let last4 = QueryParams(index: .value, limit: 4, viewFrom: .right)
        #expect(keys(last4, scores) == ["triceratops", "bruhathkayosaurus", "linhenykus", "pterodactyl"])
        let last2 = QueryParams(index: .value, limit: 2, viewFrom: .right)
        #expect(keys(last2, scores) == ["linhenykus", "pterodactyl"])
        #expect(last2.filter(scores).plainJSON() == ["linhenykus": 80, "pterodactyl": 93])
    }

    @Test func rangeThenLimit() {
        let params = QueryParams(index: .value, start: .init(value: 21), limit: 2, viewFrom: .left)
        #expect(keys(params, scores) == ["lambeosaurus", "triceratops"])
        let between = QueryParams(index: .value, start: .init(value: 20), end: .init(value: 60))
        #expect(keys(between, scores) == ["lambeosaurus", "triceratops", "bruhathkayosaurus"])
        let after = QueryParams(
            index: .value, start: .init(value: 21, inclusive: false), end: .init(value: 80, inclusive: false))
        #expect(keys(after, scores) == ["triceratops", "bruhathkayosaurus"])
        let equal = QueryParams(index: .value, start: .init(value: 22), end: .init(value: 22))
        #expect(keys(equal, scores) == ["triceratops"])
    }

    @Test func boundNamesBreakTies() throws {
        let data = try Node(json: ["a": 1, "b": 1, "c": 1, "d": 2])
        let params = QueryParams(index: .value, start: .init(value: 1, name: "b"))
        #expect(keys(params, data) == ["b", "c", "d"])
        let endParams = QueryParams(index: .value, end: .init(value: 1, name: "b"))
        #expect(keys(endParams, data) == ["a", "b"])
        let afterName = QueryParams(index: .value, start: .init(value: 1, name: "b", inclusive: false))
        #expect(keys(afterName, data) == ["c", "d"])
    }

    @Test func keyIndexRanges() throws {
        let data = try Node(json: ["a": 1, "b": 2, "c": 3, "1": 0, "20": 0])
        #expect(keys(QueryParams(index: .key, start: .init(value: "b")), data) == ["b", "c"])
        #expect(keys(QueryParams(index: .key, end: .init(value: "b"), limit: 2, viewFrom: .right), data) == ["a", "b"])
        #expect(
            keys(QueryParams(index: .key, start: .init(value: "1", inclusive: false)), data) == ["20", "a", "b", "c"])
    }

    @Test func childIndexWithMissingValues() throws {
        let data = try Node(json: ["a": ["age": 30], "b": ["age": 10], "c": ["name": "x"], "d": ["age": 20]])
        let params = QueryParams(index: .child(Path("age")), start: .init(value: 15), limit: 1, viewFrom: .left)
        #expect(keys(params, data) == ["d"])
        let fromNull = QueryParams(index: .child(Path("age")), start: .init(value: nil), end: .init(value: nil))
        #expect(keys(fromNull, data) == ["c"])
    }

    @Test func leafAndDefaultResults() throws {
        let leaf = Node(.number(5))
        #expect(QueryParams(index: .value, limit: 2).filter(leaf).isEmpty)
        #expect(QueryParams.default.filter(leaf) == leaf)
        let withPriority = scores.withPriority(.number(1))
        #expect(QueryParams(index: .value, limit: 10).filter(withPriority).priority == nil)
        #expect(QueryParams(index: .value).filter(withPriority).priority == .number(1))
    }

    @Test func wireObjectRoundTrip() throws {
        let params = QueryParams(
            index: .child(Path("score")), start: .init(value: 10, name: "k"), end: .init(value: "z", inclusive: false),
            limit: 3, viewFrom: .left)
        let wire = params.wireObject
        #expect(wire.jsonString == #"{"sp":10,"sn":"k","sin":true,"ep":"z","ein":false,"l":3,"vf":"l","i":"score"}"#)
        #expect(try QueryParams(wireObject: wire) == params)
        #expect(
            params.queryIdentifier == #"{"ein":false,"ep":"z","i":"score","l":3,"sin":true,"sn":"k","sp":10,"vf":"l"}"#)
        #expect(QueryParams.default.queryIdentifier == "default")
        #expect(QueryParams(index: .value).queryIdentifier == #"{"i":".value"}"#)
    }

    @Test func wireObjectFromOtherSDKs() throws {
        // Android sends startAfter as startAt with the [MAX_KEY] sentinel and no "sin".
        let android = try QueryParams(
            wireObject: JSONParser.parse(#"{"sp":5,"sn":"[MAX_KEY]","l":2,"vf":"l","i":".value"}"#))
        let data = try Node(json: ["a": 5, "b": 6, "c": 7, "d": 8])
        #expect(android.selectedChildren(of: data).map(\.key.string) == ["b", "c"])
        // A limit without vf is from the right unless a start is set.
        let legacy = try QueryParams(wireObject: JSONParser.parse(#"{"l":1}"#))
        #expect(legacy.effectiveViewFrom == .right)
    }

    @Test(arguments: [
        #"{"l":0}"#, #"{"l":-1}"#, #"{"l":"5"}"#, #"{"vf":"x","l":1}"#, #"{"sp":{"a":1}}"#, #"{"sp":1,"sn":5}"#,
        #"{"sp":1,"sin":"no"}"#, #"{"i":5}"#, #"{"i":".key","sp":5}"#, #"{"sp":true}"#, #"[]"#,
    ])
    func invalidWireObjects(text: String) throws {
        let json = try JSONParser.parse(text)
        #expect(throws: QueryError.self) { try QueryParams(wireObject: json) }
    }

    @Test func restParameters() throws {
        let params = try #require(
            try QueryParams(restParameters: ["orderBy": #""score""#, "startAt": "10", "limitToFirst": "2"]))
        #expect(params == QueryParams(index: .child(Path("score")), start: .init(value: 10), limit: 2, viewFrom: .left))
        let byKey = try #require(
            try QueryParams(restParameters: ["orderBy": #""$key""#, "endAt": #""m""#, "limitToLast": "3"]))
        #expect(byKey == QueryParams(index: .key, end: .init(value: "m"), limit: 3, viewFrom: .right))
        let equal = try #require(try QueryParams(restParameters: ["orderBy": #""$value""#, "equalTo": #""a,b","k1""#]))
        #expect(equal.start == .init(value: "a,b", name: "k1"))
        #expect(equal.end == equal.start)
        let after = try #require(try QueryParams(restParameters: ["orderBy": #""$priority""#, "startAfter": "3"]))
        #expect(after.start == .init(value: 3, inclusive: false))
        #expect(try QueryParams(restParameters: ["print": "pretty"]) == nil)
    }

    @Test func invalidRestParameters() {
        let cases: [[String: String]] = [
            ["startAt": "1"],
            ["orderBy": "score"],
            ["orderBy": #""$key""#, "startAt": "1"],
            ["orderBy": #""$value""#, "limitToFirst": "0"],
            ["orderBy": #""$value""#, "limitToFirst": "1", "limitToLast": "1"],
            ["orderBy": #""$value""#, "equalTo": "1", "startAt": "1"],
            ["orderBy": #""$value""#, "startAt": "1,2"],
            ["orderBy": #""$value""#, "startAt": "{}"],
        ]
        for parameters in cases {
            #expect(throws: QueryError.self, "\(parameters)") { try QueryParams(restParameters: parameters) }
        }
    }
}
