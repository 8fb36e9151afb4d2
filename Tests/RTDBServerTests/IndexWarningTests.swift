import RTDBCore
import RTDBRules
import RTDBTestSupport
import RTDBWire
import Testing

/// `.indexOn` at work: a listen ordered by a child the rules do not index gets the `no_index`
/// warning (the SDKs then tell their developer which index to add); an indexed one does not.
struct IndexWarningTests {
    @Test func aQueryByAnUnindexedChildIsWarned() async throws {
        let rules = try SecurityRules(
            text: #"{"rules": {".read": true, "users": {".indexOn": ["name", ".value"]}}}"#)
        let server = try await TestServer.start(configure: { $0.rules = rules })
        let client = WireTestClient(url: server.webSocketURL)
        _ = try await client.hello()
        func listen(orderBy index: String, tag: Int) async throws -> JSONValue {
            let query = try QueryParams(wireObject: ["i": .string(index), "l": 2, "vf": "l"])
            return try await client.call(.listen(path: Path("users"), query: query, tag: tag, hash: "")).data
        }
        #expect(try await listen(orderBy: "age", tag: 1) == ["w": ["no_index"]])
        #expect(try await listen(orderBy: "name", tag: 2) == [:])
        #expect(try await listen(orderBy: ".value", tag: 3) == [:])
        #expect(try await listen(orderBy: ".key", tag: 4) == [:], "keys need no index")
        await client.close()
        await server.stop()
    }
}
