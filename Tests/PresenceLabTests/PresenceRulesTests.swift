import Foundation
import Presence
import PresenceLab
import RTDBClient
import RTDBCore
import RTDBRules
import RTDBTestSupport
import RTDBWire
import Synchronization
import Testing

/// The shipped presence rules, enforced by a real server over WebSocket (our client) and REST.
@Suite struct PresenceRulesTests {
    static func server() async throws -> TestServer {
        let rules = try SecurityRules(text: PresenceRules.text)
        return try await TestServer.start(configure: { $0.rules = rules })
    }

    static func client(_ server: TestServer, as credential: DatabaseCredential?) -> Database {
        let database = Database(url: "http://127.0.0.1:\(server.port)?ns=demo")
        database.setCredential(credential)
        return database
    }

    /// The error a write gets, or nil once it is acknowledged.
    static func outcome(of write: (@escaping @Sendable ((any Error)?, DatabaseReference) -> Void) -> Void) async
        -> DatabaseError?
    {
        await withCheckedContinuation { continuation in
            write { error, _ in continuation.resume(returning: error as? DatabaseError) }
        }
    }

    @Test func usersWriteOnlyTheirOwnPresence() async throws {
        let server = try await Self.server()
        let morgan = Self.client(server, as: .emulatorUser(uid: "morgan"))
        let own = await Self.outcome {
            morgan.reference(withPath: "users/morgan/lastOnline").setValue(
                ServerValue.timestamp(), withCompletionBlock: $0)
        }
        #expect(own == nil)
        let other = await Self.outcome {
            morgan.reference(withPath: "users/sam/lastOnline").setValue(1, withCompletionBlock: $0)
        }
        #expect(other?.code == .permissionDenied)
        #expect(other?.message.contains("Permission denied") == true, "Firebase's words: \(other?.message ?? "")")
        let report = try await http("GET", "/.inspect/coverage.json?ns=demo", port: server.port)
        #expect(
            report.body.contains("no .write rule allows writing /users/sam/lastOnline (uid morgan)"),
            "the explanation is in the coverage report's denials")
        let notANumber = await Self.outcome {
            morgan.reference(withPath: "users/morgan/lastOnline").setValue("yesterday", withCompletionBlock: $0)
        }
        #expect(notANumber?.code == .permissionDenied, "lastOnline must be a number")
        let inTheFuture = await Self.outcome {
            morgan.reference(withPath: "users/morgan/lastOnline").setValue(Int64.max / 2, withCompletionBlock: $0)
        }
        #expect(inTheFuture?.code == .permissionDenied, "lastOnline cannot be in the future")
        // A refused write is a dead letter with the server's reason, not a write retried forever.
        #expect(try await until(morgan.changes) { morgan.deadLetters.count == 3 })
        #expect(morgan.deadLetters.first?.status == .permissionDenied)

        // Someone else's onDisconnect is refused when it is registered.
        let hostile = await Self.outcome {
            morgan.reference(withPath: "users/sam/lastOnline").onDisconnectSetValue(1, withCompletionBlock: $0)
        }
        #expect(hostile?.code == .permissionDenied)

        // The documented flow works for its own user, and others signed in see it.
        let session = PresenceSession(database: morgan, userID: "morgan", device: "laptop")
        session.start()
        let sam = Self.client(server, as: .emulatorUser(uid: "sam"))
        let directory = PresenceDirectory(database: sam)
        directory.start()
        #expect(try await until(sam.changes) { directory.users.first { $0.id == "morgan" }?.connections.count == 1 })
        session.stop()
        for database in [morgan, sam] { database.close() }
        await server.stop()
    }

    @Test func signedOutReadsAreRefusedAndAdminWritesAnywhere() async throws {
        let server = try await Self.server()
        let anonymous = Self.client(server, as: nil)
        let cancelled = Mutex<DatabaseError?>(nil)
        anonymous.reference(withPath: "users").observe(
            .value, with: { _ in }, withCancel: { error in cancelled.withLock { $0 = error as? DatabaseError } })
        #expect(try await until(anonymous.changes) { cancelled.withLock { $0 }?.code == .permissionDenied })
        #expect(try await http("GET", "/users.json?ns=demo", port: server.port).status == 401)

        let admin = Self.client(server, as: .admin)
        // Admin skips even .validate: a value no user could write.
        let write = await Self.outcome {
            admin.reference(withPath: "users/sam/lastOnline").setValue("never", withCompletionBlock: $0)
        }
        #expect(write == nil)
        let read = try await http(
            "GET", "/users/sam.json?ns=demo", port: server.port, headers: ["Authorization": "Bearer owner"])
        #expect(read.json == ["lastOnline": "never"])
        for database in [anonymous, admin] { database.close() }
        await server.stop()
    }

    @Test func restActsAsTheOverriddenUser() async throws {
        let server = try await Self.server()
        let asMorgan =
            "auth_variable_override=" + #"{"uid":"morgan"}"#.addingPercentEncoding(
                withAllowedCharacters: .alphanumerics)!
        let owner = ["Authorization": "Bearer owner"]
        let own = try await http(
            "PUT", "/users/morgan/lastOnline.json?\(asMorgan)&ns=demo", port: server.port, body: "5", headers: owner)
        #expect(own.status == 200)
        let other = try await http(
            "PUT", "/users/sam/lastOnline.json?\(asMorgan)&ns=demo", port: server.port, body: "5", headers: owner)
        #expect(other.status == 401)
        #expect(other.json == ["error": "Permission denied"], "\(other.body)")
        // The override needs the admin credential: a user cannot claim to be another.
        let token = AuthToken.emulatorToken(uid: "sam", issuedAt: 0, lifetime: 1 << 40)
        let claimed = try await http(
            "PUT", "/users/morgan/lastOnline.json?\(asMorgan)&ns=demo", port: server.port, body: "5",
            headers: ["Authorization": "Bearer \(token)"])
        #expect(claimed.status == 401)
        // A user's own token over REST.
        let withToken = try await http(
            "PUT", "/users/sam/lastOnline.json?ns=demo", port: server.port, body: "6",
            headers: ["Authorization": "Bearer \(token)"])
        #expect(withToken.status == 200)
        let signedOut = try await http(
            "PUT", "/users/sam/lastOnline.json?auth_variable_override=null&ns=demo", port: server.port, body: "7",
            headers: owner)
        #expect(signedOut.status == 401)
        await server.stop()
    }

    static func putRules(_ text: String, _ server: TestServer) async throws -> HTTPResponse {
        try await http(
            "PUT", "/.settings/rules.json?ns=demo", port: server.port, body: text,
            headers: ["Authorization": "Bearer owner"])
    }

    /// The rules are checked again when an onDisconnect fires: one registered while allowed but
    /// refused by then is skipped (and logged), as Firebase does.
    @Test func anOnDisconnectTheRulesNoLongerAllowIsNotApplied() async throws {
        let server = try await Self.server()
        let morgan = Self.client(server, as: .emulatorUser(uid: "morgan"))
        let sam = Self.client(server, as: .emulatorUser(uid: "sam"))
        for (database, user) in [(morgan, "morgan"), (sam, "sam")] {
            let registered = await Self.outcome {
                database.reference(withPath: "users/\(user)/lastOnline").onDisconnectSetValue(
                    ServerValue.timestamp(), withCompletionBlock: $0)
            }
            #expect(registered == nil)
        }
        // Morgan loses write access to their presence while connected.
        let locked = PresenceRules.text.replacing(
            #"".write": "auth != null && auth.uid == $uid""#,
            with: #"".write": "auth != null && auth.uid == $uid && $uid != 'morgan'""#)
        #expect(try await Self.putRules(locked, server).status == 200)
        morgan.goOffline()
        sam.goOffline()
        #expect(try await until(server.server.connections.changes) { server.server.connections.connections.isEmpty })
        let users = try await http(
            "GET", "/users.json?ns=demo", port: server.port, headers: ["Authorization": "Bearer owner"])
        #expect(users.json?["sam"]?["lastOnline"]?.intValue != nil, "still allowed: applied")
        #expect(users.json?["morgan"] == nil, "no longer allowed: skipped")
        for database in [morgan, sam] { database.close() }
        await server.stop()
    }

    /// Listens whose read access goes are revoked: a WebSocket listener is cancelled with
    /// `permission_denied`, a stream gets `cancel` and ends.
    @Test func rulesThatTakeReadAccessAwayRevokeLiveListens() async throws {
        let server = try await Self.server()
        let morgan = Self.client(server, as: .emulatorUser(uid: "morgan"))
        let values = Mutex(0)
        let cancelled = Mutex<DatabaseError?>(nil)
        morgan.reference(withPath: "users").observe(
            .value, with: { _ in values.withLock { $0 += 1 } },
            withCancel: { error in cancelled.withLock { $0 = error as? DatabaseError } })
        #expect(try await until(morgan.changes) { values.withLock { $0 } == 1 })
        let stream = try await RawTCPClient(port: server.port)
        defer { Task { await stream.close() } }
        let token = AuthToken.emulatorToken(uid: "sam", issuedAt: 0, lifetime: 1 << 40)
        try await stream.write(
            "GET /users.json?ns=demo HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n"
                + "Authorization: Bearer \(token)\r\n\r\n")
        _ = try await stream.read(until: "event: put")

        let closed = PresenceRules.text.replacing(#"".read": "auth != null","#, with: #"".read": false,"#)
        #expect(try await Self.putRules(closed, server).status == 200)
        #expect(try await until(morgan.changes) { cancelled.withLock { $0 }?.code == .permissionDenied })
        _ = try await stream.read(until: "event: cancel\ndata: null")
        _ = try await stream.read(until: "\r\n0\r\n\r\n")  // the response's last chunk: the stream ends
        morgan.close()
        await server.stop()
    }

    /// Rules replaced at runtime are checked as a file is: a bad one is refused with its line and
    /// column, and the rules in force stay.
    @Test func badRulesOverRESTAreRefusedAndTheOldOnesStay() async throws {
        let server = try await Self.server()
        let bad = try await Self.putRules("{\"rules\": {\n  \".read\": \"auth.id ==\"\n}}", server)
        #expect(bad.status == 400)
        #expect(bad.json?["error"]?.stringValue == "rules.json:2:23: expected a value, found end of the rule")
        let current = try await http(
            "GET", "/.settings/rules.json?ns=demo", port: server.port, headers: ["Authorization": "Bearer owner"])
        #expect(current.body == PresenceRules.text)
        let notAdmin = try await http("GET", "/.settings/rules.json?ns=demo", port: server.port)
        #expect(notAdmin.status == 401)
        await server.stop()
    }

    /// A credential that expires on a live connection is revoked as Firebase does: the client hears
    /// `expired_token`, the connection goes on signed out (its listens checked again) and the
    /// client pauses its writes until it has a new credential.
    @Test func aCredentialThatExpiresWhileConnectedIsRevoked() async throws {
        let time = TestTime()
        let server = try await TestServer.start(
            time: time.source,
            configure: {
                $0.rules = PresenceRules.rules
                $0.enforcesTokenExpiry = true
            })
        func signedInUIDs() -> [String?] { server.server.connections.connections.map(\.authUID) }
        let morgan = Database(url: "http://127.0.0.1:\(server.port)?ns=demo", time: time.source)
        // Five seconds: shorter than every other timer (the client's 10 s ping, the server's 7.5 s
        // heartbeat tick), so moving time past it fires only the expiry.
        morgan.setCredential(
            .idToken(AuthToken.emulatorToken(uid: "morgan", issuedAt: time.nowSeconds, lifetime: 5)))
        let cancelled = Mutex<DatabaseError?>(nil)
        morgan.reference(withPath: "users").observe(
            .value, with: { _ in }, withCancel: { error in cancelled.withLock { $0 = error as? DatabaseError } })
        try await morgan.reference(withPath: "users/morgan/lastOnline").setValue(1)
        #expect(signedInUIDs() == ["morgan"])

        await time.advance(by: .seconds(6))
        #expect(
            try await until(server.server.connections.changes) { signedInUIDs() == [nil] },
            "the server took the credential back")
        #expect(
            try await until(morgan.changes) { cancelled.withLock { $0 }?.code == .permissionDenied },
            "signed out: no reads")
        morgan.reference(withPath: "users/morgan/lastOnline").setValue(2, andPriority: nil)
        #expect(
            try await until(morgan.changes) {
                if case .paused(let reason) = morgan.pendingWrites.first?.state { return reason.contains("expired") }
                return false
            }, "the write waits for a new credential instead of being refused")
        #expect(morgan.deadLetters.isEmpty)

        morgan.setCredential(
            .idToken(AuthToken.emulatorToken(uid: "morgan", issuedAt: time.nowSeconds, lifetime: 3_600)))
        #expect(try await until(morgan.changes) { morgan.pendingWrites.isEmpty })
        let stored = try await http(
            "GET", "/users/morgan/lastOnline.json?ns=demo", port: server.port,
            headers: ["Authorization": "Bearer owner"])
        #expect(stored.json == 2)
        morgan.close()
        await server.stop()
    }
}
