import RTDBCore

extension UserPresence {
    /// One user as several databases (shards) list them, merged: online if online on any, every
    /// connection of every shard (oldest first), `lastOnline` the latest, and which shards list
    /// the user and where they are online (``sources``, ``onlineSources``).
    ///
    /// - Parameter parts: Each shard's entry for the user, with the shard's place (0 to 63);
    ///   empty gives an entry with no connections.
    public static func merging(_ parts: [(shard: Int, user: UserPresence)]) -> UserPresence {
        guard let first = parts.first?.user else { return UserPresence(id: "") }
        var merged = UserPresence(id: first.id)
        for (shard, user) in parts {
            let bit: UInt64 = (0..<64).contains(shard) ? 1 << UInt64(shard) : 0
            merged.sources |= bit
            if user.isOnline { merged.onlineSources |= bit }
            merged.connections += user.connections
            merged.lastOnline = [merged.lastOnline, user.lastOnline].compactMap { $0 }.max()
            merged.problem = merged.problem ?? user.problem.map { parts.count > 1 ? "\(shard + 1): \($0)" : $0 }
            if user.isOnline, let since = user.onlineSince {
                merged.onlineSince = min(merged.onlineSince ?? since, since)
            }
        }
        // Connections listed say online by themselves; a status node's word counts where none are.
        let reports = parts.compactMap(\.user.reportedOnline)
        if merged.connections.isEmpty, !reports.isEmpty { merged.reportedOnline = merged.onlineSources != 0 }
        if merged.reportedOnline != true { merged.onlineSince = nil }
        // Oldest first, as one shard lists them; a connection without a time after the others.
        merged.connections = merged.connections.enumerated().sorted { a, b in
            switch (a.element.connectedAt, b.element.connectedAt) {
            case (let x?, let y?) where x != y: x < y
            case (.some, nil): true
            case (nil, .some): false
            default: a.offset < b.offset
            }
        }.map(\.element)
        return merged
    }
}
