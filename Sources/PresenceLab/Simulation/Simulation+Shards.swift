import Logging
import Presence
import PresenceModel
import RTDBClient

/// One database watched beside the first: its watcher and its presence directory.
struct ShardWatcher: Sendable {
    /// What it is.
    let database: WatchedDatabase
    /// The connection that reads it.
    let watcher: Database
    /// Its users.
    let directory: PresenceDirectory

    init(_ database: WatchedDatabase, retryPolicy: RetryPolicy, logger: Logger) {
        self.database = database
        watcher = Database(url: database.target.url, transport: database.transport, logger: logger)
        watcher.retryPolicy = retryPolicy
        if let credentials = database.credentials {
            watcher.setTokenProvider(credentials)
        } else {
            watcher.setCredential(.emulatorUser(uid: "presencetop"))
        }
        directory = PresenceDirectory(database: watcher, root: database.presencePath, layout: database.layout)
    }
}

/// The watched databases' users, merged, and what the events last told of them.
struct PresenceFold: Sendable {
    var sharded: ShardedPresence
    /// The merged list the events last told, and how many of it were online (kept change by
    /// change); nil before the first.
    var told: (list: PresenceList, online: Int)?
    /// The databases whose first list has been read, one bit each.
    var loaded: UInt64 = 0

    init(shards: Int) { sharded = ShardedPresence(shards: shards) }
}

extension Simulation {
    /// Folds one database's new list into the merged one and tells what changed: each change, or
    /// one burst for more than ``PresenceBurst/threshold`` (a first load of 100,000 users is one
    /// line, not 100,000).
    func presenceChanged(shard: Int, _ list: PresenceList) {
        let (changes, changedUsers, users, online, isFirst) = fold.withLock { fold in
            let users = fold.sharded.update(shard: shard, to: list)
            let changed = users.changes(from: fold.told?.list ?? PresenceList())
            var online = fold.told?.online ?? 0
            for change in changed {
                if change.old?.isOnline == true { online -= 1 }
                if change.new?.isOnline == true { online += 1 }
            }
            let bit: UInt64 = shard < 64 ? 1 << UInt64(shard) : 0
            defer { (fold.told, fold.loaded) = ((users, online), fold.loaded | bit) }
            return (PresenceChange.between(changed), changed.count, users, online, fold.loaded & bit == 0)
        }
        if changes.count > PresenceBurst.threshold {
            let burst = PresenceBurst(
                changes, usersChanged: changedUsers, listed: users.count, online: online, isFirstLoad: isFirst)
            emit(.presenceBurst(burst))
        } else {
            for change in changes { emit(.presence(change)) }
        }
    }
}
