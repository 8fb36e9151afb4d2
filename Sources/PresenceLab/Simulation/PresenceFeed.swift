import Logging
import Presence
import PresenceModel
import RTDBClient
import Synchronization

/// Everyone's presence as the server has it: the watcher of the first database and the
/// databases watched beside it (shards of one app), their users merged, and what changed told
/// change by change (or as one burst).
final class PresenceFeed: Sendable {
    /// The connection that reads the first database.
    let watcher: Database
    /// The first database's users.
    let directory: PresenceDirectory
    /// The databases watched beside the first (``SimulationOptions/otherDatabases``).
    let others: [ShardWatcher]
    /// Every watched database's users, merged, and what the events last told of them.
    private let fold: Mutex<PresenceFold>

    /// The users of a first load after which freed memory is handed back to the system.
    static let trimmedLoad = 100_000

    /// A feed of `watcher`'s presence under `options`' path and layout, and of `options`' other
    /// databases, each read with `retryPolicy`.
    init(watcher: Database, options: SimulationOptions, retryPolicy: RetryPolicy, logger: Logger) {
        self.watcher = watcher
        directory = PresenceDirectory(database: watcher, root: options.presencePath, layout: options.layout)
        others = options.otherDatabases.map { ShardWatcher($0, retryPolicy: retryPolicy, logger: logger) }
        fold = Mutex(PresenceFold(shards: 1 + others.count))
    }

    /// Starts every directory; `tell` hears each change (or one burst), `changed` every change to
    /// the merged list, told or not.
    func start(tell: @escaping @Sendable (WatchEvent.Kind) -> Void, changed: @escaping @Sendable () -> Void) {
        directory.start { [weak self] users in self?.update(shard: 0, users, tell: tell, changed: changed) }
        for (index, other) in others.enumerated() {
            other.directory.start { [weak self] users in
                self?.update(shard: index + 1, users, tell: tell, changed: changed)
            }
        }
    }

    /// Everyone's presence now, merged across the watched databases.
    var users: PresenceList { others.isEmpty ? directory.users : fold.withLock { $0.sharded.merged } }

    /// Each watched database's users, the first's first.
    var shards: [PresenceList] { fold.withLock { $0.sharded.shards } }

    /// Whether every watched database's first list has been read.
    var isLoaded: Bool { directory.updates > 0 && others.allSatisfy { $0.directory.updates > 0 } }

    /// Stops listening.
    func stop() {
        directory.stop()
        for other in others { other.directory.stop() }
    }

    /// Closes the watchers.
    func close() {
        watcher.close()
        for other in others { other.watcher.close() }
    }

    /// Folds one database's new list into the merged one and tells what changed: each change, or
    /// one burst for more than ``PresenceBurst/threshold`` (a first load of 100,000 users is one
    /// line, not 100,000).
    private func update(
        shard: Int, _ list: PresenceList, tell: (WatchEvent.Kind) -> Void, changed: () -> Void
    ) {
        let (told, burst) = fold.withLock { fold -> ([PresenceChange], PresenceBurst?) in
            let users = fold.sharded.update(shard: shard, to: list)
            let bit: UInt64 = shard < 64 ? 1 << UInt64(shard) : 0
            var burst = PresenceBurst(
                [], usersChanged: 0, listed: users.count, online: fold.told?.online ?? 0,
                isFirstLoad: fold.loaded & bit == 0)
            // Walked, not gathered: a first list of a million users is counted as it goes, and
            // only the first changes past the threshold are kept (to be told one by one).
            var told: [PresenceChange] = []
            users.forEachChange(from: fold.told?.list ?? PresenceList()) { change in
                guard let id = (change.new ?? change.old)?.id else { return true }
                burst.usersChanged += 1
                if change.old?.isOnline == true { burst.online -= 1 }
                if change.new?.isOnline == true { burst.online += 1 }
                let (was, now) = (change.old ?? UserPresence(id: id), change.new ?? UserPresence(id: id))
                for one in PresenceChange.between(was, now) {
                    burst.count(one)
                    if told.count <= PresenceBurst.threshold { told.append(one) }
                }
                return true
            }
            (fold.told, fold.loaded) = ((users, burst.online), fold.loaded | bit)
            return (told, told.count > PresenceBurst.threshold ? burst : nil)
        }
        if let burst {
            // A first load of many users leaves the engine's working memory freed between blocks
            // that stay; handed back at once (a million users: 113–138 MB resident from run to
            // run without, 113 with).
            if burst.isFirstLoad, burst.listed >= Self.trimmedLoad { HeapPolicy.returnFreedMemory() }
            tell(.presenceBurst(burst))
        } else {
            for change in told { tell(.presence(change)) }
        }
        // The merged list may change with no change to tell (another shard still shows the user).
        changed()
    }
}

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
