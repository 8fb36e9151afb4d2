import Foundation
import RTDBCore
import RTDBRules
import RTDBServer
import RTDBTestSupport
import RTDBWire
import Testing

/// What the REST API refuses, and that a refusal never tells a caller more than the rules let it
/// read.
@Suite struct RESTRefusalTests {
    static func token(_ uid: String) -> String {
        AuthToken.unsignedJWT(claims: ["uid": .string(uid), "exp": .int(Int64(Date().timeIntervalSince1970) + 3_600)])
    }

    /// Was: a method the HTTP parser does not know got no answer at all, and the client hung.
    @Test func anUnknownMethodGets405WithAllow() async throws {
        let server = try await TestServer.start()
        let raw = try await RawTCPClient(port: server.port)
        try await raw.write("BREW /a.json HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        let answer = try await raw.readToEnd()
        #expect(answer.hasPrefix("HTTP/1.1 405"), "\(answer)")
        #expect(answer.contains("Allow: GET, PUT, PATCH, POST, DELETE"))
        await raw.close()
        // A method the parser knows but the API lacks, the same.
        let propfind = try await http("PROPFIND", "/a.json", port: server.port)
        #expect(propfind.status == 405)
        #expect(propfind.headers["allow"] == "GET, PUT, PATCH, POST, DELETE")
        #expect(try await http("PUT", "/a.json", port: server.port, body: "1").status == 200, "others are served")
        await server.stop()
    }

    /// Was: a first request the HTTP parser refused got no answer at all (nobody handled the
    /// parser's error while the WebSocket upgrade was being negotiated), and the client hung.
    @Test func aRequestTheParserRefusesGets400AndAClose() async throws {
        let server = try await TestServer.start()
        for head in [
            "GET /a.json HTTP/1.1\r\nBad Header\r\n\r\n", "GET /a.json HTTP/9.9\r\nHost: x\r\n\r\n",
            "GET /a.json\r\n\r\n", "PUT /a.json HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n",
        ] {
            let raw = try await RawTCPClient(port: server.port)
            try await raw.write(head)
            let answer = try await raw.readToEnd()
            #expect(answer.hasPrefix("HTTP/1.1 400 Bad Request"), "\(head.debugDescription): \(answer)")
            await raw.close()
        }
        // A later bad request on a kept-alive connection is answered as before, once.
        let raw = try await RawTCPClient(port: server.port)
        try await raw.write("GET /a.json HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try await raw.read(until: "null").hasPrefix("HTTP/1.1 200 OK"))
        try await raw.write("GET /a.json HTTP/1.1\r\nBad Header\r\n\r\n")
        let second = try await raw.readToEnd()
        #expect(second.hasPrefix("HTTP/1.1 400"), "\(second)")
        #expect(second.components(separatedBy: "HTTP/1.1 400").count == 2, "one answer: \(second)")
        await raw.close()
        #expect(try await http("PUT", "/a.json", port: server.port, body: "1").status == 200, "others are served")
        await server.stop()
    }

    /// Was: the server waited for the whole declared body before it said no.
    @Test func aDeclaredBodyOverTheLimitGets413BeforeTheBody() async throws {
        let server = try await TestServer.start(configure: { $0.maxRESTBodyBytes = 1_024 })
        let raw = try await RawTCPClient(port: server.port)
        try await raw.write("PUT /a.json HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 999999999999\r\n\r\n{")
        let answer = try await raw.read(until: "bytes\"}")
        #expect(answer.hasPrefix("HTTP/1.1 413"), "\(answer)")
        #expect(answer.contains("Content-Length 999999999999"))
        await raw.close()
        #expect(try await http("GET", "/a.json", port: server.port).body == "null", "nothing was written")
        await server.stop()
    }

    /// As Firebase's REST API: an ordered query on a child the rules do not index is refused.
    @Test func anUnindexedOrderByIs400() async throws {
        let rules = try SecurityRules(text: #"{"rules": {".read": true, "users": {".indexOn": ["name"]}}}"#)
        let server = try await TestServer.start(configure: { $0.rules = rules })
        let refused = try await http("GET", #"/users.json?orderBy="age"&limitToFirst=1"#, port: server.port)
        #expect(refused.status == 400)
        #expect(
            refused.json?["error"]?.stringValue
                == #"Index not defined, add ".indexOn": "age", for path "/users", to the rules"#)
        #expect(try await http("GET", #"/users.json?orderBy="name"&limitToFirst=1"#, port: server.port).status == 200)
        #expect(try await http("GET", #"/users.json?orderBy="$key"&limitToFirst=1"#, port: server.port).status == 200)
        await server.stop()
    }

    /// Was: a conditional write with a wrong ETag answered with the current value and ETag, and an
    /// increment by 0 echoed the stored value, to a caller that may write but not read.
    @Test func aWriterWhoCannotReadLearnsNothingFromTheAnswer() async throws {
        let rules = try SecurityRules(
            text: #"{"rules": {"votes": {"$uid": {".read": "auth.uid == $uid", ".write": "auth != null"}}}}"#)
        let server = try await TestServer.start(configure: { $0.rules = rules })
        let owner = "auth=\(Self.token("u1"))"
        let other = "auth=\(Self.token("u2"))"
        #expect(try await http("PUT", "/votes/u1.json?\(owner)", port: server.port, body: "41").status == 200)

        let increment = try await http(
            "PUT", "/votes/u1.json?\(other)", port: server.port, body: #"{".sv": {"increment": 0}}"#)
        #expect(increment.status == 200)
        #expect(!increment.body.contains("41"), "\(increment.body)")
        #expect(increment.json == [".sv": ["increment": 0]], "what it sent")

        let conditional = try await http(
            "PUT", "/votes/u1.json?\(other)", port: server.port, body: "1", headers: ["if-match": "wrong"])
        #expect(conditional.status == 412)
        #expect(!conditional.body.contains("41"), "\(conditional.body)")
        #expect(conditional.headers["etag"] == nil)

        // The owner, who may read, gets the value and ETag as before.
        let own = try await http(
            "PUT", "/votes/u1.json?\(owner)", port: server.port, body: "1", headers: ["if-match": "wrong"])
        #expect(own.status == 412)
        #expect(own.json == 41)
        #expect(own.headers["etag"] != nil)
        await server.stop()
    }
}
