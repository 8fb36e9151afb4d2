extension WatchSnapshot {
    /// Every watched database's feed in `--url` order: ``feeds`` when several are watched, else
    /// the one ``usersFeed`` is (none before the watcher exists).
    public var watchedFeeds: [WatchedFeed] {
        if !feeds.isEmpty { return feeds }
        guard let status = usersFeed.status else { return [] }
        return [
            WatchedFeed(
                name: server, identity: access.identity ?? WatchedFeed.emulatorIdentity, status: status,
                listLoaded: usersFeed.loaded, users: users.count, refusal: usersFeed.refusal)
        ]
    }

    /// The names of the databases whose bits are set in `sources` (``UserPresence/sources``);
    /// the one database's name when one is watched.
    public func databaseNames(_ sources: UInt64, feeds: [WatchedFeed]) -> [String] {
        guard feeds.count > 1 else { return [feeds.first?.name ?? server] }
        return feeds.prefix(64).indices.filter { sources & (1 << UInt64($0)) != 0 }.map { feeds[$0].name }
    }
}
