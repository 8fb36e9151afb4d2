import Presence
import RTDBCore
import Testing

/// The two presence layouts Firebase documents, read as apps write them; what fits neither is
/// listed, never dropped.
@Suite struct PresenceLayoutTests {
    @Test func theDocumentedLayoutWithTrueEntriesAndRicherOnes() throws {
        let json = try JSONParser.parse(
            #"""
            {"alice": {"connections": {"-OGkZ6Zq3vJ8yQ2b1cDe": true}, "name": "Alice", "email": "a@example.com"},
             "bob": {"connections": {"k1": {"device": "phone", "connectedAt": 1764000000000}}, "lastOnline": 1763999000000},
             "carol": {"lastOnline": 1763990000000, "bio": "profile beside presence"}}
            """#)
        let users = PresenceLayout.documented.users(from: json)
        #expect(users.map(\.id) == ["alice", "bob", "carol"])
        #expect(
            users[0].isOnline
                && users[0].connections.first?.connectedAt == PushIDGenerator.timestamp(of: "-OGkZ6Zq3vJ8yQ2b1cDe"))
        #expect(users[1].connections.first?.device == "phone")
        #expect(!users[2].isOnline && users[2].lastOnline == UnixTime(millisecondsSince1970: 1_763_990_000_000))
        #expect(users.allSatisfy { $0.problem == nil }, "profiles beside presence are not problems")
    }

    @Test func statusNodesWithFirebasesNamesAndAnAppsOwn() throws {
        let json = try JSONParser.parse(
            #"""
            {"alice": {"state": "online", "last_changed": 1764000000000},
             "bob": {"state": "offline", "last_changed": 1763999000000}}
            """#)
        let users = PresenceLayout.statusNodes.users(from: json)
        #expect(users[0].isOnline && users[0].reportedOnline == true)
        #expect(users[0].onlineSince == UnixTime(millisecondsSince1970: 1_764_000_000_000))
        #expect(!users[1].isOnline && users[1].lastOnline == UnixTime(millisecondsSince1970: 1_763_999_000_000))

        let custom = PresenceLayout.status(state: "presence", online: "here", changed: "at")
        let own = custom.users(from: try JSONParser.parse(#"{"u": {"presence": "here", "at": 5}}"#))
        #expect(own.first?.isOnline == true && own.first?.onlineSince == UnixTime(millisecondsSince1970: 5))
        let documentedNames = PresenceLayout.connections(connections: "sessions", lastOnline: "seen")
        let sessions = documentedNames.users(
            from: try JSONParser.parse(#"{"u": {"sessions": {"a": true}, "seen": 7}}"#))
        #expect(
            sessions.first?.connections.count == 1 && sessions.first?.lastOnline == UnixTime(millisecondsSince1970: 7))
    }

    @Test func entriesThatFitNoLayoutAreListedByKindNeverByValue() throws {
        let json = try JSONParser.parse(
            #"""
            {"a": "secret text", "b": {"connections": 5}, "c": {"lastOnline": "yesterday"},
             "d": {"connections": {"k": true}}}
            """#)
        let users = PresenceLayout.documented.users(from: json)
        #expect(users.map(\.id) == ["a", "b", "c", "d"], "none dropped")
        #expect(users[0].problem == "not an object (a string)")
        #expect(users[1].problem == "connections is a number, not an object of connections")
        #expect(users[2].problem == "lastOnline is a string, not a time")
        #expect(users[3].problem == nil)
        #expect(!users.contains { $0.problem?.contains("secret") ?? false })
        let status = PresenceLayout.statusNodes.users(from: json)
        #expect(
            status.map(\.problem) == [
                "not an object (a string)", "no state string", "no state string", "no state string",
            ])
    }
}

/// The client engine's node is read as its JSON is: the same users, problems and all.
@Suite struct PresenceLayoutNodeTests {
    @Test func aNodeReadsAsItsJSON() throws {
        let text = """
            {"ana": {"connections": {"-Nx1": true, "-Nx2": {"device": "phone", "connectedAt": 1700000000000}},
                     "lastOnline": 1700000000001},
             "bo": {"connections": 7, "lastOnline": "yesterday"},
             "cy": "here", "di": {"state": "online", "last_changed": 5}, "ed": {"state": 3},
             "fy": {"lastOnline": 1.5}, "gu": [1, 2]}
            """
        let node = try Node(jsonString: text)
        let json = node.plainJSON()
        for layout in [PresenceLayout.documented, .statusNodes] {
            for (key, child) in node.children {
                let fromJSON = layout.user(id: key.string, from: json[key.string] ?? .null)
                #expect(layout.user(id: key.string, from: child) == fromJSON, "\(layout) \(key)")
            }
        }
    }
}
