import PresenceModel
import RTDBCore
import Testing

/// Users merged across several databases: online if online on any, every connection counted,
/// `lastOnline` the latest, and which databases list each user.
@Suite struct ShardedPresenceTests {
    static func user(
        _ id: String, _ connections: [(String, Int64?)] = [], lastOnline: Int64? = nil, reported: Bool? = nil
    ) -> UserPresence {
        var user = UserPresence(
            id: id,
            connections: connections.map {
                .init(id: $0.0, connectedAt: $0.1.map { UnixTime(millisecondsSince1970: $0) })
            },
            lastOnline: lastOnline.map { UnixTime(millisecondsSince1970: $0) })
        user.reportedOnline = reported
        return user
    }

    @Test func aUserOnAnyShardOnlineIsOnlineWithEveryConnectionAndTheLatestLastOnline() {
        let merged = UserPresence.merging([
            (0, Self.user("ana", lastOnline: 300)),
            (1, Self.user("ana", [("c2", 20), ("c1", 10)], lastOnline: 100)),
            (2, Self.user("ana", [("c3", nil), ("c0", 5)])),
        ])
        #expect(merged.isOnline)
        #expect(merged.connections.map(\.id) == ["c0", "c1", "c2", "c3"], "oldest first, untimed last")
        #expect(merged.lastOnline == UnixTime(millisecondsSince1970: 300))
        #expect(merged.sources == 0b111 && merged.onlineSources == 0b110)
        #expect(merged.reportedOnline == nil, "connections listed say online themselves")
    }

    @Test func statusNodesSayOnlineIfAnySaysSoAndOfflineOnlyIfAllDo() {
        var online = Self.user("bo", reported: true)
        online.onlineSince = UnixTime(millisecondsSince1970: 50)
        let offline = Self.user("bo", lastOnline: 40, reported: false)
        let either = UserPresence.merging([(0, offline), (3, online)])
        #expect(
            either.isOnline && either.reportedOnline == true
                && either.onlineSince == UnixTime(millisecondsSince1970: 50))
        #expect(either.sources == 0b1001 && either.onlineSources == 0b1000)
        let neither = UserPresence.merging([(0, offline), (1, offline)])
        #expect(!neither.isOnline && neither.reportedOnline == false && neither.onlineSince == nil)
        #expect(neither.lastOnline == UnixTime(millisecondsSince1970: 40))
    }

    @Test func anUnfitEntryNamesItsDatabase() {
        var unfit = Self.user("cy")
        unfit.problem = "a number where an object belongs"
        let merged = UserPresence.merging([(0, Self.user("cy")), (2, unfit)])
        #expect(merged.problem == "3: a number where an object belongs")
    }

    @Test func updatesMergeChangeByChangeAndAUserGoesWhenNoShardListsThem() {
        var sharded = ShardedPresence(shards: 3)
        sharded.update(shard: 0, to: [Self.user("ana", [("a1", 1)]), Self.user("cy", lastOnline: 7)])
        sharded.update(shard: 1, to: [Self.user("ana", lastOnline: 9), Self.user("bo", [("b1", 2)])])
        #expect(sharded.merged.map(\.id) == ["ana", "bo", "cy"])
        #expect(sharded.merged[id: "ana"]?.sources == 0b11)
        #expect(sharded.merged[id: "ana"]?.lastOnline == UnixTime(millisecondsSince1970: 9))
        // ana leaves shard 0: offline, as shard 1 has her.
        let shard0 = sharded.shards[0].updating(Self.user("ana", lastOnline: 12))
        sharded.update(shard: 0, to: shard0)
        #expect(sharded.merged[id: "ana"]?.isOnline == false)
        #expect(sharded.merged[id: "ana"]?.lastOnline == UnixTime(millisecondsSince1970: 12))
        // bo is gone from shard 1, the only one that listed him.
        sharded.update(shard: 1, to: sharded.shards[1].removing(id: "bo"))
        #expect(sharded.merged.map(\.id) == ["ana", "cy"])
        // An index out of range changes nothing.
        let before = sharded.merged
        sharded.update(shard: 7, to: [Self.user("zed")])
        #expect(sharded.merged.isSameVersion(as: before))
    }

    @Test func aWholeLoadMergesAsChangeByChangeWould() {
        let left = PresenceList((0..<300).map { Self.user("u\($0)", $0 % 2 == 0 ? [("l\($0)", Int64($0))] : []) })
        let right = PresenceList(
            (150..<450).map { Self.user("u\($0)", $0 % 3 == 0 ? [("r\($0)", Int64($0))] : [], lastOnline: 1) })
        var whole = ShardedPresence(shards: 2)
        whole.update(shard: 0, to: left)
        whole.update(shard: 1, to: right)
        // The same lists arriving a few users at a time.
        var stepwise = ShardedPresence(shards: 2)
        for start in stride(from: 0, to: 450, by: 30) {
            let ids = Set((start..<start + 30).map { "u\($0)" })
            stepwise.update(
                shard: 0, to: PresenceList(left.filter { ids.contains($0.id) || stepwise.shards[0][id: $0.id] != nil }))
            stepwise.update(
                shard: 1, to: PresenceList(right.filter { ids.contains($0.id) || stepwise.shards[1][id: $0.id] != nil })
            )
        }
        #expect(whole.merged.count == 450)
        #expect(whole.merged == stepwise.merged)
        #expect(whole.merged[id: "u150"]?.sources == 0b11 && whole.merged[id: "u150"]?.connections.count == 2)
        #expect(whole.merged[id: "u10"]?.sources == 0b01)
    }

    @Test func oneShardIsItsListAsItIs() {
        var sharded = ShardedPresence(shards: 1)
        let list: PresenceList = [Self.user("ana", [("a", 1)])]
        sharded.update(shard: 0, to: list)
        #expect(sharded.merged.isSameVersion(as: list))
        #expect(sharded.merged[id: "ana"]?.sources == 0)
    }

    @Test func idsAreMergedByCodeUnitsNotByUnicodeEquivalence() {
        // "é" precomposed and decomposed: equal to Swift's ==, two users to Firebase.
        let composed = Self.user("caf\u{E9}", [("x", 1)])
        let decomposed = Self.user("cafe\u{301}")
        var sharded = ShardedPresence(shards: 2)
        sharded.update(shard: 0, to: [composed])
        sharded.update(shard: 1, to: [decomposed])
        #expect(sharded.merged.count == 2)
    }
}
