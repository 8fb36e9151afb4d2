import PresenceModel
import RTDBCore
import Testing

/// ``RankedTree`` and ``PresenceList``: ranks, lookups, updates and the walk between versions,
/// checked against sorted arrays.
@Suite struct PresenceListTests {
    private static func user(_ id: String, online: Bool, at time: Int64 = 0) -> UserPresence {
        online
            ? UserPresence(id: id, connections: [.init(id: "\(id)-c", device: "phone")])
            : UserPresence(id: id, lastOnline: UnixTime(millisecondsSince1970: time))
    }

    @Test func ranksLookupsAndUpdatesMatchASortedArray() {
        var random = SeededRandom(seed: 31)
        var list = PresenceList()
        var model: [String: UserPresence] = [:]
        var versions: [(PresenceList, [String: UserPresence])] = []
        for step in 0..<3_000 {
            let id = "u\(Int.random(in: 0..<400, using: &random))"
            if Int.random(in: 0..<3, using: &random) == 0 {
                list = list.removing(id: id)
                model[id] = nil
            } else {
                let user = Self.user(id, online: Bool.random(using: &random), at: Int64(step))
                list = list.updating(user)
                model[id] = user
            }
            if step % 300 == 0 { versions.append((list, model)) }
        }
        versions.append((list, model))
        for (version, model) in versions {
            let sorted = model.values.sorted { UTF16Order.lessThan($0.id, $1.id) }
            #expect(version.count == sorted.count)
            #expect(Array(version) == sorted, "rank by rank")
            var walked: [UserPresence] = []
            version.forEachUser { walked.append($0) }
            #expect(walked == sorted)
            for user in sorted { #expect(version[id: user.id] == user) }
            #expect(version[id: "nobody"] == nil)
        }
        // The walk between any two versions finds exactly the users that differ.
        for (older, olderModel) in versions {
            for (newer, newerModel) in versions.suffix(3) {
                let changes = newer.changes(from: older)
                let differing = Set(olderModel.keys).union(newerModel.keys).filter { olderModel[$0] != newerModel[$0] }
                #expect(changes.count == differing.count)
                for change in changes {
                    let id = (change.new ?? change.old)?.id ?? ""
                    #expect(change.old == olderModel[id] && change.new == newerModel[id])
                }
                #expect((newer == older) == differing.isEmpty)
            }
        }
    }

    /// Ids are told apart by code units: `é` and `e` + U+0301 are two users, as in Firebase.
    @Test func idsAreComparedByCodeUnits() {
        let list: PresenceList = [Self.user("\u{E9}", online: true), Self.user("e\u{301}", online: false)]
        #expect(list.count == 2)
        #expect(list[id: "\u{E9}"]?.isOnline == true)
        #expect(list[id: "e\u{301}"]?.isOnline == false)
        #expect(list.removing(id: "e\u{301}").map(\.id) == ["\u{E9}"])
        // Of two entries with one id, the last is kept.
        let twice = PresenceList([Self.user("a", online: true), Self.user("a", online: false)])
        #expect(twice.count == 1 && twice[id: "a"]?.isOnline == false)
    }

    /// The same users make the same tree whatever order they came in, so a version built anew
    /// still compares with an updated one.
    @Test func theSameUsersMakeTheSameShape() {
        let users = (0..<500).map { Self.user("user\($0)", online: $0 % 3 == 0) }
        var updated = PresenceList()
        for user in users.reversed() { updated = updated.updating(user) }
        let built = PresenceList(users)
        #expect(built == updated)
        #expect(built.changes(from: updated).isEmpty)
        let moved = built.updating(Self.user("user7", online: true))
        #expect(moved.changes(from: updated).map { $0.new?.id } == ["user7"])
    }

    /// A burst of changes is told once: counts, and the line for the events pane.
    @Test func aBurstIsCountedAndToldOnce() {
        let changes: [PresenceChange] = [
            .userOnline(user: "a"), .deviceConnected(user: "a", device: nil, connections: 1),
            .userOffline(user: "b", lastOnline: nil), .deviceDisconnected(user: "b", device: nil, connections: 0),
        ]
        let burst = PresenceBurst(changes, usersChanged: 12_000, listed: 1_000_000, online: 300_000, isFirstLoad: false)
        #expect(burst.cameOnline == 1 && burst.wentOffline == 1)
        #expect(burst.devicesConnected == 1 && burst.devicesDisconnected == 1)
        let expected =
            "12,000 users changed at once: 1 came online, 1 went offline, 1 connection opened, "
            + "1 connection closed; 300,000 online now"
        #expect("\(burst)" == expected)
        let first = PresenceBurst([], usersChanged: 1_000_000, listed: 1_000_000, online: 300_000, isFirstLoad: true)
        #expect("\(first)" == "1,000,000 users listed, 300,000 online")
    }
}
