import Foundation
import RTDBCore
import RTDBRules
import RTDBServer
import RTDBTestSupport
import RTDBWire
import Testing

/// Keys, uids and secrets are compared by code units, as Firebase compares them: `"é"` (U+00E9)
/// and `"e\u{301}"` are two keys, and the Kelvin sign (U+212A) is not `K`, though Swift's `String`
/// calls each pair equal.
@Suite struct CodeUnitKeyTests {
    static let composed = "\u{E9}"
    static let decomposed = "e\u{301}"
    /// The same two spellings, as a URL carries them.
    static let composedURL = "%C3%A9"
    static let decomposedURL = "e%CC%81"

    static let ownRules = #"""
        {"rules": {"users": {"$uid": {".read": "auth.uid == $uid", ".write": "auth.uid == $uid"}}}}
        """#

    static func token(_ uid: String) -> String {
        AuthToken.unsignedJWT(claims: ["uid": .string(uid), "exp": .int(Int64(Date().timeIntervalSince1970) + 3_600)])
    }

    /// Was: the server died (`Fatal error: Duplicate key`) on the shallow read.
    @Test func aShallowReadOfTwoEquivalentKeysListsBoth() async throws {
        let rules = try SecurityRules(text: Self.ownRules)
        let server = try await TestServer.start(heartbeatTimeout: Self.heartbeat, configure: { $0.rules = rules })
        let auth = "auth=\(Self.token("u1"))"
        for key in [Self.composedURL, Self.decomposedURL] {
            let put = try await http(
                "PUT", "/users/u1/connections/\(key).json?\(auth)", port: server.port, body: "true")
            #expect(put.status == 200, "\(put.body)")
        }
        let shallow = try await http("GET", "/users/u1/connections.json?shallow=true&\(auth)", port: server.port)
        #expect(shallow.status == 200)
        #expect(Self.memberNames(shallow.json) == [Self.composed, Self.decomposed].sorted(by: UTF16Order.lessThan))
        // The server is still serving.
        #expect(try await http("GET", "/users/u1.json?\(auth)", port: server.port).status == 200)
        await server.stop()
    }

    /// Was: one object with both keys stored one of them, and separately written siblings read
    /// back as one key carrying the other's value.
    @Test func twoEquivalentKeysAreTwoChildrenOverRESTAndWebSocket() async throws {
        let server = try await TestServer.start(heartbeatTimeout: Self.heartbeat)
        let object = #"{"\#(Self.composed)": 1, "\#(Self.decomposed)": 2}"#
        #expect(try await http("PUT", "/one.json", port: server.port, body: object).status == 200)
        #expect(try await http("PUT", "/apart/\(Self.composedURL).json", port: server.port, body: "1").status == 200)
        #expect(try await http("PUT", "/apart/\(Self.decomposedURL).json", port: server.port, body: "2").status == 200)
        // In key order: "e" (U+0065) sorts before "é" (U+00E9).
        let expected: JSONValue = .object([CodeUnitString(Self.decomposed): 2, CodeUnitString(Self.composed): 1])
        for path in ["one", "apart"] {
            let read = try await http("GET", "/\(path).json", port: server.port)
            #expect(read.json == expected, "REST \(path): \(read.body)")
        }
        let client = WireTestClient(url: server.webSocketURL)
        _ = try await client.hello()
        for path in ["one", "apart"] {
            let reply = try await client.call(.get(path: Path(path), query: .default))
            #expect(reply.data == expected, "WS \(path): \(reply.data)")
        }
        // A value spelled the other way is a change, and is stored as sent.
        _ = try await client.call(.put(path: Path("name"), data: .string(Self.composed), hash: nil))
        _ = try await client.call(.put(path: Path("name"), data: .string(Self.decomposed), hash: nil))
        let name = try await http("GET", "/name.json", port: server.port)
        #expect(name.json?.stringValue.map { CodeUnitString($0) } == CodeUnitString(Self.decomposed))
        await client.close()
        await server.stop()
    }

    /// Was: a user whose uid is `"e\u{301}"` could write the presence of user `"é"`, and `"\u{212A}ate"`
    /// that of `"Kate"`.
    @Test func aUidEquivalentToAnotherIsNotThatUser() async throws {
        let rules = try SecurityRules(text: Self.ownRules)
        let server = try await TestServer.start(heartbeatTimeout: Self.heartbeat, configure: { $0.rules = rules })
        let pairs = [(Self.decomposed, Self.composedURL), ("\u{212A}ate", "Kate")]
        for (uid, victim) in pairs {
            let rest = try await http(
                "PUT", "/users/\(victim)/connections/x.json?auth=\(Self.token(uid))", port: server.port, body: "true")
            #expect(rest.status == 401, "REST as \(uid): \(rest.body)")
            let client = WireTestClient(url: server.webSocketURL)
            _ = try await client.hello()
            #expect(try await client.call(.auth(credential: Self.token(uid), authVariable: nil)).status == .ok)
            let victimKey = victim == Self.composedURL ? Self.composed : victim
            let wire = try await client.call(
                .put(path: Path(segments: ["users", victimKey, "connections", "x"]), data: true, hash: nil))
            #expect(wire.status == .permissionDenied, "WS as \(uid)")
            // Their own spelling is theirs.
            let own = try await client.call(
                .put(path: Path(segments: ["users", uid, "connections", "x"]), data: true, hash: nil))
            #expect(own.status == .ok)
            await client.close()
        }
        #expect(
            try await http("GET", "/users/Kate.json", port: server.port, headers: ["Authorization": "Bearer owner"])
                .body == "null")
        await server.stop()
    }

    /// Was: a key reused by another user made that user's later write `ok` but dropped.
    @Test func idempotencyKeysAreScopedToTheWriter() async throws {
        let server = try await TestServer.start(heartbeatTimeout: Self.heartbeat)
        var clients: [WireTestClient] = []
        for uid in ["u1", "u2"] {
            let client = WireTestClient(url: server.webSocketURL)
            _ = try await client.hello()
            #expect(try await client.call(.auth(credential: Self.token(uid), authVariable: nil)).status == .ok)
            clients.append(client)
        }
        let shared = "device:1"
        _ = try await clients[0].call(.put(path: Path("a"), data: 1, hash: nil, idempotencyKey: shared))
        let second = try await clients[1].call(.put(path: Path("b"), data: 2, hash: nil, idempotencyKey: shared))
        #expect(second.status == .ok)
        #expect(try await clients[0].call(.get(path: Path("b"), query: .default)).data == 2)
        // The same user's own retry is still recognised.
        _ = try await clients[1].call(.put(path: Path("b"), data: 3, hash: nil, idempotencyKey: shared))
        #expect(try await clients[0].call(.get(path: Path("b"), query: .default)).data == 2)
        for client in clients { await client.close() }
        await server.stop()
    }

    /// Long: these clients send no keepalives, and a whole parallel run can hold a test back
    /// longer than the default 15 s between two messages (the server closed one under a test).
    static let heartbeat: Duration = .seconds(600)

    static func memberNames(_ json: JSONValue?) -> [String] {
        (json?.objectValue?.keys.map(\.string) ?? []).sorted(by: UTF16Order.lessThan)
    }
}
