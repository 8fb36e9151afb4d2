import PresenceModel
import RTDBCore

/// What `presencetop watch` writes, as JSON Lines (docs/watch.md): a line per user whose presence
/// changed, a line per change of a watcher's connection, and summaries, each made from the
/// snapshots of a live simulation.
///
/// Pure: it is given snapshots and events, and keeps what it needs to tell what changed (the
/// last list, a total kept change by change, each watcher's last state). A change among a
/// million users costs what the change costs: lists are compared where they differ only.
public struct WatchLog: Sendable {
    /// Whether the users listed at first are left out (only later changes are written).
    public var changesOnly: Bool

    /// The list the last lines were made from.
    private var users = PresenceList()
    /// Its totals, kept change by change.
    private var totals = PresenceTotals()
    /// Whether the first full list has been taken in.
    private var loaded = false
    /// Each watcher's last connection line, less its time, by database name.
    private var connections: [String: JSONValue] = [:]
    /// This device's writes acknowledged so far.
    private var acknowledged = 0
    /// Presence lines so far.
    private var presenceLines = 0
    /// When the last summary was made, and the acknowledgements up to then.
    private var lastSummary: (at: UnixTime, acknowledged: Int)?
    /// The first list while its users' lines are still being made, the rank of the next user
    /// and the list's time: a million users' lines are made a piece at a time.
    private var firstList: FirstList?

    /// The first list's users whose lines are still to be made.
    private struct FirstList {
        /// The list.
        var users: PresenceList
        /// The rank of the next user.
        var next: Int
        /// The list's time, on each of its lines.
        var at: JSONValue
    }

    /// Users' lines made for each piece of the first list.
    public static let pieceSize = 10_000

    /// Whether the first list's lines are still being made (``lines(for:)`` makes the next
    /// piece each time it is called).
    public var isWritingFirstList: Bool { firstList != nil }

    /// A log that has written nothing.
    public init(changesOnly: Bool = false) {
        self.changesOnly = changesOnly
    }

    /// Takes in an event of the simulation (this device's acknowledged writes).
    public mutating func note(_ event: WatchEvent) {
        if case .acknowledged(let count) = event.kind { acknowledged += count }
    }

    /// The lines `snapshot` makes: each watcher's connection where it changed, then (once every
    /// first list is in) each user whose presence changed, in id order, and a summary right
    /// after the first list.
    ///
    /// The first list's users come ``pieceSize`` at a time, one piece a call, while
    /// ``isWritingFirstList``; changes after it are told once it is all out.
    public mutating func lines(for snapshot: WatchSnapshot) -> [JSONValue] {
        let at = JSONValue.int(snapshot.takenAt.millisecondsSince1970)
        let feeds = snapshot.watchedFeeds
        var lines: [JSONValue] = []
        for feed in feeds {
            let line = Self.connection(feed, snapshot)
            guard connections[feed.name] != line else { continue }
            connections[feed.name] = line
            lines.append(Self.stamped(line, type: "connection", at: at))
        }
        if firstList != nil {
            // Later changes wait until the first list is out: they are told against it.
            lines += nextPiece(of: snapshot, feeds: feeds)
            return lines
        }
        guard snapshot.usersFeed.loaded, snapshot.usersFeed.refusal == nil || !snapshot.users.isEmpty else {
            return lines
        }
        guard loaded else {
            // The first list: counted at once, its users' lines made a piece at a time.
            loaded = true
            users = snapshot.users
            totals = PresenceTotals()
            users.forEachUser { totals.count($0, 1) }
            if changesOnly {
                lines.append(summary(for: snapshot))
            } else {
                firstList = FirstList(users: users, next: 0, at: at)
                lines += nextPiece(of: snapshot, feeds: feeds)
            }
            return lines
        }
        for change in snapshot.users.changes(from: users) {
            if let old = change.old { totals.count(old, -1) }
            if let new = change.new { totals.count(new, 1) }
            guard let user = change.new ?? change.old else { continue }
            presenceLines += 1
            lines.append(Self.presence(change.new, of: user, at: at, snapshot: snapshot, feeds: feeds))
        }
        users = snapshot.users
        return lines
    }

    /// The next piece of the first list's lines, and the summary after its last.
    private mutating func nextPiece(of snapshot: WatchSnapshot, feeds: [WatchedFeed]) -> [JSONValue] {
        guard let piece = firstList else { return [] }
        let (list, next, at) = (piece.users, piece.next, piece.at)
        let end = min(list.count, next + Self.pieceSize)
        var lines: [JSONValue] = []
        lines.reserveCapacity(end - next + 1)
        for rank in next..<end {
            let user = list[rank]
            lines.append(Self.presence(user, of: user, at: at, snapshot: snapshot, feeds: feeds))
        }
        presenceLines += end - next
        if end < list.count {
            firstList?.next = end
        } else {
            firstList = nil
            lines.append(summary(for: snapshot))
        }
        return lines
    }

    /// The figures now (totals, each database, this device's queue).
    public func figures(for snapshot: WatchSnapshot) -> WatchFigures {
        var figures = WatchFigures()
        figures.totals = totals
        figures.connections = totals.countedConnections(layoutsListConnections: snapshot.layoutsListConnections)
        figures.listLoaded = loaded
        figures.acknowledgedWrites = acknowledged
        figures.presenceChanges = presenceLines
        figures.databases = snapshot.watchedFeeds.map { feed in
            WatchFigures.Database(
                name: feed.name, state: Self.state(feed.status, snapshot),
                secondsSinceHeard: feed.status.lastHeardAt.map { max(0, (snapshot.takenAt - $0).inSeconds) },
                clockSkewSeconds: (feed.status.clockSkew?.offset ?? feed.status.serverTimeOffset).inSeconds,
                users: feed.users, listLoaded: feed.listLoaded, refusal: feed.refusal)
        }
        if let device = snapshot.thisDevice {
            figures.pendingWrites = device.pendingWrites.count
            figures.pendingBytes = device.pendingBytes
        }
        return figures
    }

    /// A summary line: totals, each database, and this device's queue with its drain rate since
    /// the last summary.
    public mutating func summary(for snapshot: WatchSnapshot) -> JSONValue {
        let figures = figures(for: snapshot)
        var line: JSONValue.Members = [
            "type": "summary", "at": .int(snapshot.takenAt.millisecondsSince1970),
            "loaded": .bool(figures.listLoaded), "users": .int(Int64(figures.totals.users)),
            "online": .int(Int64(figures.totals.online)),
            "connections": figures.connections.map { .int(Int64($0)) } ?? .null,
        ]
        line["databases"] = .array(
            figures.databases.map { database in
                var entry: JSONValue.Members = [
                    "database": .string(database.name), "state": .string(database.state),
                    "users": .int(Int64(database.users)),
                    "heardSecondsAgo": database.secondsSinceHeard.map { .double(Self.rounded($0)) } ?? .null,
                    "clockSkewMs": .int(Int64((database.clockSkewSeconds * 1000).rounded())),
                ]
                if let refusal = database.refusal { entry["refused"] = .string(refusal) }
                return .object(entry)
            })
        if let pending = figures.pendingWrites {
            line["pendingWrites"] = .int(Int64(pending))
            line["pendingBytes"] = .int(Int64(figures.pendingBytes ?? 0))
            if let last = lastSummary, snapshot.takenAt > last.at {
                let rate = Double(acknowledged - last.acknowledged) / (snapshot.takenAt - last.at).inSeconds
                line["drainedPerSecond"] = .double(Self.rounded(rate))
            }
        }
        lastSummary = (snapshot.takenAt, acknowledged)
        return .object(line)
    }

    /// `line` with its type and time first.
    private static func stamped(_ line: JSONValue, type: String, at: JSONValue) -> JSONValue {
        var members: JSONValue.Members = ["type": .string(type), "at": at]
        for (key, value) in line.objectValue ?? [:] { members[key] = value }
        return .object(members)
    }

    /// A watcher's connection as a line tells it (without its time).
    private static func connection(_ feed: WatchedFeed, _ snapshot: WatchSnapshot) -> JSONValue {
        var line: JSONValue.Members = [
            "database": .string(feed.name), "state": .string(state(feed.status, snapshot)),
        ]
        switch feed.status.phase {
        case .connecting(let attempt): line["attempt"] = .int(Int64(attempt))
        case .waitingToRetry(let attempt, let retryAt, let reason):
            line["attempt"] = .int(Int64(attempt))
            line["reason"] = .string(reason)
            line["retryAt"] = retryAt.map { .int($0.millisecondsSince1970) } ?? .null
        case .connected, .offline: break
        }
        if let refusal = feed.refusal { line["refused"] = .string(refusal) }
        return .object(line)
    }

    /// A watcher's phase in a word; a connection that has heard nothing for longer than the
    /// server's heartbeat allows is `stale`, as the dashboard marks it.
    static func state(_ status: ConnectionStatus, _ snapshot: WatchSnapshot) -> String {
        switch status.phase {
        case .connected: snapshot.staleSince(status, now: snapshot.takenAt) == nil ? "connected" : "stale"
        case .connecting: "connecting"
        case .waitingToRetry: "waiting"
        case .offline: "offline"
        }
    }

    /// A user's presence line: `now` nil when the user is no longer listed (`removed`).
    private static func presence(
        _ now: UserPresence?, of user: UserPresence, at: JSONValue, snapshot: WatchSnapshot,
        feeds: [WatchedFeed]
    ) -> JSONValue {
        let state: String
        switch now {
        case nil: state = "removed"
        case let now? where now.problem != nil: state = "unfit"
        case let now?: state = now.isOnline ? "online" : "offline"
        }
        var line: JSONValue.Members = [
            "type": "presence", "at": at, "user": .string(user.id), "state": .string(state),
            "connections": now.flatMap { $0.reportedOnline == nil && $0.problem == nil ? $0 : nil }
                .map { .int(Int64($0.connections.count)) } ?? .null,
            "lastOnline": now?.lastOnline.map { .int($0.millisecondsSince1970) } ?? .null,
            "databases": .array(snapshot.databaseNames(user.sources, feeds: feeds).map(JSONValue.string)),
        ]
        if let problem = now?.problem { line["problem"] = .string(problem) }
        return .object(line)
    }

    /// `value` to the millisecond.
    private static func rounded(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }
}
