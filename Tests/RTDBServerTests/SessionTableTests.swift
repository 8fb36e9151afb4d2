import RTDBCore
import RTDBRules
import RTDBWire
import Testing

@testable import RTDBServer

/// A namespace's sessions alone: no engine, no socket, no time; the table of connections shows
/// what they hold.
@Suite struct SessionTableTests {
    static func token(_ uid: String) -> AuthToken { AuthToken(claims: ["uid": .string(uid)]) }

    static func record(_ sessionID: String, _ value: JSONValue) -> OnDisconnectRecord {
        OnDisconnectRecord(
            sessionID: sessionID, auth: token("u"), writes: [(Path("status"), Node(trustedJSON: value))])
    }

    /// A table with one live session `s1` on `outlet`, shown in `connections`.
    static func table() -> (SessionTable, Outlet, ConnectionTable) {
        let connections = ConnectionTable()
        connections.insert(
            ConnectionInfo(
                sessionID: "s1", namespace: "t", peerAddress: "127.0.0.1:1", authUID: nil,
                connectedAt: UnixTime(millisecondsSince1970: 0),
                lastHeardAt: UnixTime(millisecondsSince1970: 0), onDisconnectCount: 0, listenCount: 0))
        var sessions = SessionTable(orphanGrace: .seconds(5), connections: connections)
        let outlet = Outlet()
        _ = sessions.open(outlet, sessionID: "s1", supersedes: nil)
        return (sessions, outlet, connections)
    }

    @Test func aSessionThatSupersedesOneFromBeforeTheRestartTakesItsWritesOnce() {
        var sessions = SessionTable(orphanGrace: .seconds(5), connections: ConnectionTable())
        sessions.orphans.records["old"] = Self.record("old", "gone")
        sessions.orphans.records["other"] = Self.record("other", "gone")
        let first = sessions.open(Outlet(), sessionID: "new", supersedes: "old")
        #expect(first?.sessionID == "old")
        let again = sessions.open(Outlet(), sessionID: "newer", supersedes: "old")
        #expect(again == nil, "its writes run once")
        #expect(Array(sessions.orphans.records.keys) == ["other"], "the one that did not come back still waits")
        #expect(sessions.count == 2)
    }

    @Test func endedSessionsWritesAreDueAsTheIdentityThatRegisteredThem() throws {
        var (sessions, outlet, _) = Self.table()
        let signedIn = sessions.signIn(Self.token("alice"), outletID: outlet.id, expired: false)
        #expect(signedIn)
        sessions[outlet.id]?.onDisconnect.remember(Path("status/alice"), Node(trustedJSON: "offline"))
        _ = sessions.onDisconnectChanged(outletID: outlet.id)
        // The credential runs out: the connection is signed out, its writes still run as alice.
        let expired = sessions.signIn(nil, outletID: outlet.id, expired: true)
        #expect(expired)
        let never = Outlet()
        let (due, stored, ended) = sessions.close([never, outlet])
        #expect(ended == [outlet.id])
        #expect(stored == ["s1"], "the store holds its writes: they leave it with the session")
        let only = try #require(due.first)
        #expect(due.count == 1 && only.sessionID == "s1")
        #expect(only.auth == RuleAuth(Self.token("alice")))
        #expect(only.writes.map(\.path) == [Path("status/alice")])
        let again = sessions.close([outlet])
        #expect(again.ended.isEmpty, "a second close finds nothing")
        #expect(sessions.isEmpty)
    }

    @Test func onDisconnectChangesAreStoredOnlyWhenThereIsSomethingToStore() {
        var (sessions, outlet, connections) = Self.table()
        let nothing = sessions.onDisconnectChanged(outletID: outlet.id)
        #expect(nothing == nil, "none, and none stored")
        sessions[outlet.id]?.onDisconnect.remember(Path("a"), Node(trustedJSON: 1))
        sessions[outlet.id]?.onDisconnect.remember(Path("b"), Node(trustedJSON: 2))
        let stored = sessions.onDisconnectChanged(outletID: outlet.id)
        #expect(stored?.writes.count == 2 && sessions[outlet.id]?.isStored == true)
        #expect(connections["s1"]?.onDisconnectCount == 2)
        _ = sessions[outlet.id]?.onDisconnect.forget(.root)
        let removal = sessions.onDisconnectChanged(outletID: outlet.id)
        #expect(removal?.writes.isEmpty == true, "the stored copy is removed")
        #expect(sessions[outlet.id]?.isStored == false && connections["s1"]?.onDisconnectCount == 0)
        let noSession = sessions.onDisconnectChanged(outletID: Outlet().id)
        #expect(noSession == nil, "no session")
    }

    @Test func aChangeTheDiskRefusedGoesBackToWhatIsStored() {
        var (sessions, outlet, connections) = Self.table()
        sessions[outlet.id]?.onDisconnect.remember(Path("a"), Node(trustedJSON: 1))
        sessions[outlet.id]?.onDisconnect.remember(Path("b"), Node(trustedJSON: 2))
        _ = sessions.onDisconnectChanged(outletID: outlet.id)
        sessions.restore(outletID: outlet.id, to: Self.record("s1", "was"))
        #expect(sessions[outlet.id]?.onDisconnect.overwrites().map(\.path) == [Path("status")])
        #expect(sessions[outlet.id]?.isStored == true && connections["s1"]?.onDisconnectCount == 1)
        sessions.restore(outletID: outlet.id, to: nil)
        #expect(sessions[outlet.id]?.onDisconnect.count == 0 && sessions[outlet.id]?.isStored == false)
    }

    @Test func theTableShowsWhoIsSignedInAndHowManyListensASessionHolds() {
        var (sessions, outlet, connections) = Self.table()
        _ = sessions.signIn(AuthToken(claims: ["uid": "x"], isAdmin: true), outletID: outlet.id, expired: false)
        #expect(connections["s1"]?.authUID == "owner")
        _ = sessions.signIn(Self.token("bob"), outletID: outlet.id, expired: false)
        #expect(connections["s1"]?.authUID == "bob")
        sessions.showListens(3, outletID: outlet.id)
        #expect(connections["s1"]?.listenCount == 3)
        let stranger = sessions.signIn(Self.token("eve"), outletID: Outlet().id, expired: false)
        #expect(!stranger, "no such session")
    }
}
