import PresenceModel
import RTDBCore
import Testing

@testable import Dashboard

/// The presence index kept change by change is the index made anew, in every order and filter.
@Suite struct PresenceIndexTests {
    private static func user(_ random: inout SeededRandom, _ id: String) -> UserPresence {
        let connections = (0..<Int.random(in: 0...3, using: &random)).map { index in
            UserPresence.Connection(id: "\(id)-\(index)", device: ["Phone", "laptop", "tablet"][index])
        }
        var user = UserPresence(
            id: id, connections: connections,
            lastOnline: UnixTime(millisecondsSince1970: Int64.random(in: 0...1_000, using: &random)))
        if Int.random(in: 0..<10, using: &random) == 0 { user.reportedOnline = Bool.random(using: &random) }
        if Int.random(in: 0..<25, using: &random) == 0 { user.problem = "not an object (a string)" }
        return user
    }

    /// `count` users among `user0`…`user<of - 1>` changed or (one in `removingOneIn`) removed.
    private static func change(
        _ users: inout PresenceList, _ count: Int, of ids: Int, removingOneIn removal: Int,
        _ random: inout SeededRandom
    ) {
        for _ in 0..<count {
            let id = "user\(Int.random(in: 0..<ids, using: &random))"
            users =
                Int.random(in: 0..<removal, using: &random) == 0
                ? users.removing(id: id) : users.updating(user(&random, id))
        }
    }

    /// What the index must say, worked out from the whole list.
    private static func check(_ index: PresenceIndex, _ users: PresenceList, sort: PresenceSort, filter: String) {
        var fresh = PresenceIndex()
        fresh.update(to: PresenceList(Array(users)), sort: sort, filter: filter)
        #expect(index.all.elements == fresh.all.elements, "\(sort) order")
        // The order as the comparison says, user by user (the index makes it from the names' order).
        let sorted = Array(users).sorted { sort.compare($0, $1) < 0 }
        #expect(index.all.map(\.id) == sorted.map(\.id), "\(sort) order by its comparison")
        #expect(index.shown.elements == fresh.shown.elements, "\(sort) order, filter \(filter)")
        let needle = filter.lowercased()
        let matching = users.filter { user in
            filter.isEmpty || user.id.lowercased().contains(needle)
                || user.connections.contains { ($0.device ?? "").lowercased().contains(needle) }
        }
        #expect(Set(index.shown.map(\.id)) == Set(matching.map(\.id)))
        for (counts, listed) in [(index.allCounts, Array(users)), (index.shownCounts, matching)] {
            #expect(counts.users == listed.count)
            #expect(counts.online == listed.count(where: \.isOnline))
            #expect(counts.connections == listed.reduce(0) { $0 + $1.connections.count })
            #expect(counts.unfit == listed.count { $0.problem != nil })
            #expect(counts.listingConnections == listed.count { $0.problem == nil && $0.reportedOnline == nil })
        }
    }

    @Test func changesFoldedInMatchAnIndexMadeAnew() {
        var random = SeededRandom(seed: 77)
        var users = PresenceList((0..<600).map { Self.user(&random, "user\($0)") })
        var index = PresenceIndex()
        let filters = ["", "", "1", "12", "PHONE", "user4", ""]
        for round in 0..<120 {
            let sort = PresenceSort.allCases[(round / 30) % PresenceSort.allCases.count]
            let filter = filters[round % filters.count]
            Self.change(&users, Int.random(in: 0...8, using: &random), of: 700, removingOneIn: 4, &random)
            index.update(to: users, sort: sort, filter: filter)
            #expect(index.isCurrent(for: users, sort: sort, filter: filter))
            Self.check(index, users, sort: sort, filter: filter)
        }
    }

    /// An index of a first list kept as its text (the users read from it as asked for, the table
    /// keeping ids and keys alone) says what an index of the same users made anew says, through
    /// changes one by one and in bursts.
    @Test func aFirstListReadFromItsTextIndexesAsTheSameUsersDo() throws {
        var random = SeededRandom(seed: 5503)
        // Ids in UTF-16 order, as the server sends them: not the order people read (user10 before
        // user2), so the index sorts them.
        let ids = (0..<700).map { "user\($0)" }.sorted(by: UTF16Order.lessThan)
        let members = ids.map { id in
            let devices = (0..<Int.random(in: 0...2, using: &random)).map { index in
                "\"c\(index)\":{\"device\":\"\(["Phone", "laptop"][index])\"}"
            }
            let connections = devices.isEmpty ? "" : "\"connections\":{\(devices.joined(separator: ","))},"
            return "\"\(id)\":{\(connections)\"lastOnline\":\(Int.random(in: 1...1_000, using: &random))}"
        }
        let text = "{" + members.joined(separator: ",") + "}"
        let read = JSONParser.reading(text) { (parser) throws(JSONParseError) -> Node? in
            try parser.parsePlainNodePacked(depth: 1, minimumCount: 1, minimumBytes: 1)
        }
        let node = try #require(read ?? nil)
        var users = try #require(PresenceList(reading: node.children, layout: .documented))
        var index = PresenceIndex()
        index.update(to: users, sort: .name, filter: "")
        Self.check(index, users, sort: .name, filter: "")
        let filters = ["", "1", "PHONE", "user1", ""]
        for round in 0..<20 {
            let sort = PresenceSort.allCases[round % PresenceSort.allCases.count]
            let filter = filters[round % filters.count]
            let count = round % 4 == 3 ? 300 : Int.random(in: 0...8, using: &random)
            Self.change(&users, count, of: 800, removingOneIn: 4, &random)
            index.update(to: users, sort: sort, filter: filter)
            Self.check(index, users, sort: sort, filter: filter)
            // Each user as the list has them, read through the table's ids.
            #expect(index.all.elements == Array(users).sorted { sort.compare($0, $1) < 0 })
        }
    }

    /// Bursts (many users changed between two versions) are folded in order by order, with slots
    /// given back and taken again; the same as an index made anew.
    @Test func burstsFoldedInMatchAnIndexMadeAnew() {
        var random = SeededRandom(seed: 91)
        var users = PresenceList((0..<900).map { Self.user(&random, "user\($0)") })
        var index = PresenceIndex()
        let filters = ["", "1", "PHONE", "user1", ""]
        for round in 0..<24 {
            let sort = PresenceSort.allCases[round % PresenceSort.allCases.count]
            let filter = filters[round % filters.count]
            index.update(to: users, sort: sort, filter: filter)
            // 33 to 200 changes: more than one at a time, fewer than a new list.
            Self.change(&users, Int.random(in: 33...200, using: &random), of: 1_100, removingOneIn: 3, &random)
            index.update(to: users, sort: sort, filter: filter)
            Self.check(index, users, sort: sort, filter: filter)
        }
    }

    /// What a drawn frame keeps to compare with holds no users and equals its own version only;
    /// the index it was taken from changes on without it.
    @Test func aVersionMarkEqualsItsVersionAndNoOther() {
        var random = SeededRandom(seed: 21)
        let users = PresenceList((0..<50).map { Self.user(&random, "u\($0)") })
        var index = PresenceIndex()
        index.update(to: users, sort: .state, filter: "")
        let mark = index.versionOnly
        #expect(mark == index)
        #expect(mark.all.isEmpty && mark.shown.isEmpty)
        var state = DashboardState(width: 80, height: 24)
        state.presence.index = index
        #expect(state.drawnMark == state)
        let changed = users.updating(Self.user(&random, "u7"))
        index.update(to: changed, sort: .state, filter: "")
        #expect(mark != index)
        Self.check(index, changed, sort: .state, filter: "")
    }

    /// The radix order is a stable sort by key, for any 64-bit keys.
    @Test func radixOrderIsAStableSortByKey() {
        var random = SeededRandom(seed: 8)
        for spread in [Int64(1), 1_000, .max] {
            let keys = (0..<5_000).map { _ in Int64.random(in: -spread...spread, using: &random) }
            let slots = (0..<Int32(5_000)).map { $0 }
            let sorted = slots.sorted { keys[Int($0)] != keys[Int($1)] ? keys[Int($0)] < keys[Int($1)] : $0 < $1 }
            #expect(RadixOrder.stable(slots, keys: keys) == sorted)
        }
        #expect(RadixOrder.stable([], keys: []).isEmpty)
    }

    /// A list whose users mostly changed (a reconnect's fresh tree) is indexed anew, and a list
    /// that is the same version is not looked at.
    @Test func aNewListAndTheSameListAreBothRight() {
        var random = SeededRandom(seed: 3)
        let first = PresenceList((0..<300).map { Self.user(&random, "u\($0)") })
        let second = PresenceList((100..<500).map { Self.user(&random, "u\($0)") })
        var index = PresenceIndex()
        index.update(to: first, sort: .state, filter: "")
        let before = index
        index.update(to: first, sort: .state, filter: "")
        #expect(index == before)
        index.update(to: second, sort: .state, filter: "")
        Self.check(index, second, sort: .state, filter: "")
    }

    /// The order by last online keeps a second's place in four bytes: the latest first, a
    /// second's milliseconds together, every second from 1970 into 2106 apart, and any time from
    /// the data between the online and the never online.
    @Test func lastOnlineKeysOrderBySecondsBetweenOnlineAndNever() {
        let times: [Int64] = [.min, -1_001, -1_000, -1, 0, 999, 1_000, 1_764_000_000_000, 4_294_967_295_999, .max]
        let keys = times.map(IndexedUser.lastOnlineKey)
        #expect(zip(keys, keys.dropFirst()).allSatisfy { $0 >= $1 })
        #expect(keys.allSatisfy { $0 > Int32.min && $0 < Int32.max })
        #expect(IndexedUser.lastOnlineKey(0) == IndexedUser.lastOnlineKey(999))
        #expect(IndexedUser.lastOnlineKey(999) > IndexedUser.lastOnlineKey(1_000))
        // Before 1970 (or past 2106): with its nearest second.
        #expect(IndexedUser.lastOnlineKey(-1_001) == IndexedUser.lastOnlineKey(0))
        #expect(IndexedUser.lastOnlineKey(4_294_967_292_000) > IndexedUser.lastOnlineKey(4_294_967_293_000))
        #expect(MemoryLayout<IndexedUser>.stride == 24)
    }

    /// A new order of the same users, from every order to every other, with changes between.
    ///
    /// Each as the comparison says; times from the data may be any integer.
    @Test func everyOrderFollowsEveryOther() {
        var random = SeededRandom(seed: 11)
        var users = PresenceList((0..<400).map { Self.user(&random, "u\($0)") })
        var extreme = UserPresence(id: "u-min", lastOnline: UnixTime(millisecondsSince1970: .min))
        users = users.updating(extreme)
        extreme.id = "u-max"
        extreme.lastOnline = UnixTime(millisecondsSince1970: .max)
        users = users.updating(extreme)
        var index = PresenceIndex()
        for from in PresenceSort.allCases {
            for to in PresenceSort.allCases {
                index.update(to: users, sort: from, filter: "")
                Self.check(index, users, sort: from, filter: "")
                users = users.updating(Self.user(&random, "u\(Int.random(in: 0..<450, using: &random))"))
                index.update(to: users, sort: to, filter: "1")
                Self.check(index, users, sort: to, filter: "1")
            }
        }
    }
}
