import Presence
import PresenceLab
import RTDBCore
import Testing

/// Reading the `users` tree: the documentation's shape and presencetop's.
@Suite struct UserPresenceTests {
    @Test func bothShapesAreReadAndSorted() throws {
        let json = try JSONParser.parse(
            #"""
            {"zoe": {"lastOnline": 1700000000000},
             "morgan": {"connections": {"-Nb": {"device": "phone", "connectedAt": 20}, "-Na": true},
                        "lastOnline": 1700000005000, "avatar": "ignored"},
             "alex": {"connections": {"-Nc": {"device": "laptop", "connectedAt": 5}}}}
            """#)
        let users = UserPresence.users(from: json)
        #expect(users.map(\.id) == ["alex", "morgan", "zoe"])
        #expect(users.map(\.isOnline) == [true, true, false])
        #expect(users[1].connections.map(\.id) == ["-Na", "-Nb"], "the entry without a time first, then by time")
        #expect(
            users[1].connections[1]
                == .init(id: "-Nb", device: "phone", connectedAt: UnixTime(millisecondsSince1970: 20)))
        #expect(users[1].lastOnline?.millisecondsSince1970 == 1_700_000_005_000)
        #expect(users[2].connections.isEmpty && users[2].lastOnline?.millisecondsSince1970 == 1_700_000_000_000)
        #expect(UserPresence.users(from: .null).isEmpty)
        #expect(UserPresence.users(from: "not a tree").isEmpty)
    }
}
