import RTDBCore

/// Users merged across several watched databases (shards): each shard's list as its directory
/// last read it, and one list of every user, merged by ``UserPresence/merging(_:)``.
///
/// An update costs what changed in that shard (each changed user is looked up in every shard),
/// unless most of the users changed (a first load), when the lists are merged in one pass. With
/// one shard the merged list is that shard's, as it is.
public struct ShardedPresence: Sendable {
    /// Each shard's users, by the shard's place.
    public private(set) var shards: [PresenceList]
    /// Every user of every shard, merged.
    public private(set) var merged = PresenceList()

    /// No users yet, in `count` shards (1 to 64).
    public init(shards count: Int) {
        shards = Array(repeating: PresenceList(), count: min(64, max(1, count)))
    }

    /// The most shards (a user's ``UserPresence/sources`` has a bit for each).
    public static let maximumShards = 64

    /// Takes shard `index`'s new list and returns the merged list (unchanged for an index out of
    /// range).
    @discardableResult
    public mutating func update(shard index: Int, to list: PresenceList) -> PresenceList {
        guard shards.indices.contains(index) else { return merged }
        if shards.count == 1 {
            shards[0] = list
            merged = list
            return merged
        }
        // More changes than a quarter of the users: merged whole (not gathered to be counted).
        let changes = list.changes(from: shards[index], atMost: max(64, merged.count / 4))
        shards[index] = list
        guard let changes else {
            merged = Self.mergedWhole(shards)
            return merged
        }
        for change in changes {
            guard let id = change.new?.id ?? change.old?.id else { continue }
            merged = Self.merge(id: id, in: shards, into: merged)
        }
        return merged
    }

    /// `list` with the user `id` as the shards have them now (gone where none lists them).
    static func merge(id: String, in shards: [PresenceList], into list: PresenceList) -> PresenceList {
        let parts = shards.enumerated().compactMap { shard, users in users[id: id].map { (shard, $0) } }
        return parts.isEmpty ? list.removing(id: id) : list.updating(UserPresence.merging(parts))
    }

    /// Every shard's users merged in one pass over the lists, each already in id order.
    static func mergedWhole(_ shards: [PresenceList]) -> PresenceList {
        var all: [(shard: Int, user: UserPresence)] = []
        all.reserveCapacity(shards.reduce(0) { $0 + $1.count })
        for (shard, users) in shards.enumerated() { users.forEachUser { all.append((shard, $0)) } }
        // Stable: a user's parts stay in shard order.
        all = all.enumerated().sorted { a, b in
            let order = UTF16Order.compare(a.element.user.id, b.element.user.id)
            return order != 0 ? order < 0 : a.offset < b.offset
        }.map(\.element)
        var users: [UserPresence] = []
        users.reserveCapacity(all.count)
        var start = 0
        while start < all.count {
            var end = start + 1
            while end < all.count, CodeUnitString.equal(all[end].user.id, all[start].user.id) { end += 1 }
            users.append(UserPresence.merging(Array(all[start..<end])))
            start = end
        }
        return PresenceList(users)
    }
}
