import Foundation
import RTDBCore
import RTDBRules
import RTDBTestSupport
import RTDBWire
import Testing

/// `/.inspect/coverage.json` and `/.inspect/coverage` on a real server, after real requests.
@Suite struct RulesCoverageEndpointTests {
    static let rules = """
        {"rules": {
          "users": {
            "$uid": {
              ".read": "auth != null",
              ".write": "auth.uid == $uid"
            }
          }
        }}
        """

    static func bearer(_ uid: String) -> [String: String] {
        ["Authorization": "Bearer " + AuthToken.emulatorToken(uid: uid, issuedAt: UnixTime.now().secondsSince1970)]
    }

    static func report(_ server: TestServer) async throws -> RulesCoverageReport {
        let response = try await http("GET", "/.inspect/coverage.json?ns=demo", port: server.port)
        #expect(response.status == 200)
        return try RulesCoverageReport(json: try #require(response.json))
    }

    @Test func theReportCountsRequestsAndNamesTheRuleThatRefused() async throws {
        let server = try await TestServer.start()
        let put = try await http(
            "PUT", "/.settings/rules.json?ns=demo", port: server.port, body: Self.rules,
            headers: ["Authorization": "Bearer owner"])
        #expect(put.status == 200)
        let allowed = try await http(
            "PUT", "/users/morgan/name.json?ns=demo", port: server.port, body: #""Morgan""#,
            headers: Self.bearer("morgan"))
        #expect(allowed.status == 200)
        let refused = try await http(
            "PUT", "/users/sam/name.json?ns=demo", port: server.port, body: #""x""#, headers: Self.bearer("morgan"))
        #expect(refused.status == 401)
        let signedOut = try await http("GET", "/users/sam.json?ns=demo", port: server.port)
        #expect(signedOut.status == 401)

        let report = try await Self.report(server)
        #expect(report.file == "rules.json" && report.text == Self.rules)
        let write = try #require(report.rules.first { $0.reference.kind == .write })
        #expect(write.expression.count(of: .value(true)) >= 1 && write.expression.count(of: .value(false)) == 1)
        #expect(write.expression.children.first?.count(of: .string) == write.expression.evaluations)
        #expect(report.deniedTotal == 2)
        let denial = try #require(report.denials.first)
        #expect(denial.who == "uid morgan" && denial.path == Path("users/sam/name") && denial.operation == .set)
        #expect(denial.refusal.rule?.place == "rules.json:5:18" && denial.refusal.rule?.text == "auth.uid == $uid")
        let read = try #require(report.denials.last)
        #expect(read.who == "signed out" && read.operation == .read && read.refusal.rule?.kind == .read)

        // New rules, new counts.
        let open = #"{"rules": {".read": true, ".write": true}}"#
        _ = try await http(
            "PUT", "/.settings/rules.json?ns=demo", port: server.port, body: open,
            headers: ["Authorization": "Bearer owner"])
        let fresh = try await Self.report(server)
        #expect(
            fresh.text == open && fresh.deniedTotal == 0 && fresh.rules.allSatisfy { $0.expression.evaluations == 0 })
        await server.stop()
    }

    @Test func thePageMarksEveryExpressionAndEscapesWhatClientsSent() async throws {
        let server = try await TestServer.start()
        _ = try await http(
            "PUT", "/.settings/rules.json?ns=demo", port: server.port, body: Self.rules,
            headers: ["Authorization": "Bearer owner"])
        let hostile = "<script>alert(1)</script>"
        let refused = try await http(
            "PUT", "/users/sam.json?ns=demo", port: server.port, body: "1", headers: Self.bearer(hostile))
        #expect(refused.status == 401)
        let page = try await http("GET", "/.inspect/coverage?ns=demo", port: server.port)
        #expect(page.status == 200 && page.headers["content-type"]?.hasPrefix("text/html") == true)
        #expect(!page.body.contains(hostile) && page.body.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(page.body.contains("auth.uid == $uid: 1 evaluation; false ×1"), "a hover title with the counts")
        #expect(page.body.contains("class=\"never\""), "the .read was never evaluated")
        #expect(page.body.contains("rules.json:5:18"))

        let unknown = try await http("GET", "/.inspect/other?ns=demo", port: server.port)
        #expect(unknown.status == 404 && unknown.json?["error"]?.stringValue?.contains("/.inspect/coverage") == true)
        let post = try await http("POST", "/.inspect/coverage.json?ns=demo", port: server.port, body: "{}")
        #expect(post.status == 405)
        await server.stop()
    }

    @Test func eachNamespaceCountsItsOwn() async throws {
        let rules = try SecurityRules(text: Self.rules)
        let server = try await TestServer.start(configure: { $0.rules = rules })
        let refused = try await http(
            "PUT", "/users/sam.json?ns=demo", port: server.port, body: "1", headers: Self.bearer("morgan"))
        #expect(refused.status == 401)
        #expect(try await Self.report(server).deniedTotal == 1)
        let other = try await http("GET", "/.inspect/coverage.json?ns=other", port: server.port)
        let report = try RulesCoverageReport(json: try #require(other.json))
        #expect(report.deniedTotal == 0 && report.rules.allSatisfy { $0.expression.evaluations == 0 })
        await server.stop()
    }

    @Test func withASecretTheReportIsForTheAdminOnly() async throws {
        let secret = "s3cret-for-the-test"
        let rules = try SecurityRules(
            text: #"""
                {"rules": {"users": {"$uid": {
                  ".write": "auth.uid == $uid",
                  "device": {".validate": "newData.isString() && newData.val().length < 100"}
                }}}}
                """#)
        let server = try await TestServer.start(configure: {
            $0.rules = rules
            $0.authSecret = secret
        })
        let deviceName = "morgan's phone in the kitchen"
        let token = AuthToken.signedJWT(
            claims: ["uid": "morgan", "exp": .int(UnixTime.now().secondsSince1970 + 3600)], secret: secret)
        let write = try await http(
            "PUT", "/users/morgan/device.json?ns=demo", port: server.port, body: "\"\(deviceName)\"",
            headers: ["Authorization": "Bearer \(token)"])
        #expect(write.status == 200)
        for path in ["/.inspect/coverage.json?ns=demo", "/.inspect/coverage?ns=demo"] {
            let anonymous = try await http("GET", path, port: server.port)
            #expect(anonymous.status == 401 && !anonymous.body.contains("auth.uid"), "\(path) without a credential")
            let user = try await http("GET", path, port: server.port, headers: ["Authorization": "Bearer \(token)"])
            #expect(user.status == 401, "\(path) as a user")
            let admin = try await http("GET", path, port: server.port, headers: ["Authorization": "Bearer \(secret)"])
            #expect(admin.status == 200 && admin.body.contains("auth.uid"), "\(path) as the admin")
            #expect(!admin.body.contains(deviceName), "what a user wrote is never in the report")
        }
        await server.stop()
    }
}
