import PresenceModel
import RTDBCore
import Testing
import WatchModel

/// `presencetop watch`'s lines, from snapshots as values: what changed and nothing else, the
/// watcher's connection, summaries, and totals that fit the layout.
@Suite struct WatchLogTests {
    static let start = UnixTime(millisecondsSince1970: 1_764_000_000_000)
    static let connected = ConnectionStatus(
        phase: .connected(sessionID: "s1"), serverTimeOffset: .milliseconds(-40), lastHeardAt: start)

    static func snapshot(
        at offset: Duration = .zero, users: [UserPresence], feed: ConnectionStatus = connected, loaded: Bool = true
    ) -> WatchSnapshot {
        var snapshot = WatchSnapshot(
            takenAt: start + offset, server: "127.0.0.1:9000 ns=demo", users: PresenceList(users))
        snapshot.usersFeed.status = feed
        snapshot.usersFeed.loaded = loaded
        return snapshot
    }

    static let sam = UserPresence(id: "sam", connections: [.init(id: "-Na", device: "phone")])
    static let alex = UserPresence(id: "alex", lastOnline: start - .seconds(60))

    static func lines(_ values: [JSONValue], type: String) -> [JSONValue] {
        values.filter { $0["type"]?.stringValue == type }
    }

    @Test func theFirstListThenOnlyWhatChanged() {
        var log = WatchLog()
        let first = log.lines(for: Self.snapshot(users: [Self.alex, Self.sam]))
        #expect(first.first?["type"]?.stringValue == "connection")
        #expect(first.first?["state"]?.stringValue == "connected")
        let presence = Self.lines(first, type: "presence")
        #expect(presence.map { $0["user"]?.stringValue } == ["alex", "sam"])
        #expect(presence[0]["state"]?.stringValue == "offline")
        #expect(presence[0]["lastOnline"] == .int(Self.start.millisecondsSince1970 - 60_000))
        #expect(presence[1]["state"]?.stringValue == "online" && presence[1]["connections"] == .int(1))
        #expect(presence[1]["databases"] == ["127.0.0.1:9000 ns=demo"])
        let summary = Self.lines(first, type: "summary")
        #expect(summary.count == 1, "a summary once the first list is in")
        #expect(summary.first?["users"] == .int(2) && summary.first?["online"] == .int(1))
        #expect(summary.first?["connections"] == .int(1))

        #expect(log.lines(for: Self.snapshot(at: .seconds(1), users: [Self.alex, Self.sam])).isEmpty)
        let samTwice = UserPresence(
            id: "sam", connections: [.init(id: "-Na", device: "phone"), .init(id: "-Nb", device: "laptop")])
        let second = log.lines(for: Self.snapshot(at: .seconds(2), users: [Self.alex, samTwice]))
        #expect(second.count == 1 && second[0]["user"]?.stringValue == "sam" && second[0]["connections"] == .int(2))
        #expect(second[0]["at"] == .int(Self.start.millisecondsSince1970 + 2_000))
        let gone = log.lines(for: Self.snapshot(at: .seconds(3), users: [samTwice]))
        #expect(gone.count == 1 && gone[0]["user"]?.stringValue == "alex" && gone[0]["state"]?.stringValue == "removed")
    }

    @Test func nothingIsToldOfUsersBeforeTheListIsIn() {
        var log = WatchLog()
        let loading = log.lines(for: Self.snapshot(users: [Self.sam], loaded: false))
        #expect(Self.lines(loading, type: "presence").isEmpty && Self.lines(loading, type: "summary").isEmpty)
        let loaded = log.lines(for: Self.snapshot(users: [Self.sam]))
        #expect(Self.lines(loaded, type: "presence").count == 1)
    }

    @Test func changesOnlyLeavesTheFirstListOut() {
        var log = WatchLog(changesOnly: true)
        let first = log.lines(for: Self.snapshot(users: [Self.alex, Self.sam]))
        #expect(Self.lines(first, type: "presence").isEmpty)
        #expect(Self.lines(first, type: "summary").first?["users"] == .int(2), "counted all the same")
        let alexBack = UserPresence(id: "alex", connections: [.init(id: "-Nc")])
        let later = log.lines(for: Self.snapshot(at: .seconds(1), users: [alexBack, Self.sam]))
        #expect(later.map { $0["user"]?.stringValue } == ["alex"])
        #expect(later.first?["state"]?.stringValue == "online")
    }

    @Test func theWatchersConnectionIsALineEachTimeItChangesStaleIncluded() {
        var log = WatchLog()
        _ = log.lines(for: Self.snapshot(users: []))
        // Nothing heard for longer than the feed may be silent: stale, as the dashboard marks it.
        let silent = log.lines(for: Self.snapshot(at: .seconds(30), users: []))
        #expect(silent.map { $0["state"]?.stringValue } == ["stale"])
        let waiting = ConnectionStatus(
            phase: .waitingToRetry(attempt: 2, retryAt: Self.start + .seconds(33), reason: "connection reset"))
        let lost = log.lines(for: Self.snapshot(at: .seconds(31), users: [], feed: waiting))
        #expect(lost.count == 1 && lost[0]["state"]?.stringValue == "waiting")
        #expect(lost[0]["reason"]?.stringValue == "connection reset" && lost[0]["attempt"] == .int(2))
        #expect(log.lines(for: Self.snapshot(at: .seconds(32), users: [], feed: waiting)).isEmpty)
    }

    /// A big first list is told a piece at a time (a million users' lines are never all made
    /// at once); the summary follows its last piece, and a change made meanwhile follows that.
    @Test func aBigFirstListIsToldAPieceAtATime() {
        let count = WatchLog.pieceSize * 2 + 500
        let users = (0..<count).map { UserPresence(id: "u\($0)", lastOnline: UnixTime(millisecondsSince1970: 5)) }
        var log = WatchLog()
        var told: [String] = []
        var pieces = 0
        var later = users
        later[3] = UserPresence(id: "u3", connections: [.init(id: "-Nb")])
        repeat {
            // The list changes while its first lines are out: told once they all are.
            let lines = log.lines(for: Self.snapshot(at: .seconds(pieces), users: pieces == 0 ? users : later))
            pieces += 1
            let presence = Self.lines(lines, type: "presence")
            #expect(presence.count <= WatchLog.pieceSize)
            told += presence.compactMap { $0["user"]?.stringValue }
            #expect(Self.lines(lines, type: "summary").isEmpty == log.isWritingFirstList)
            // Each line as of the first list, whichever piece it is in.
            let at = Self.snapshot(users: []).takenAt.millisecondsSince1970
            #expect(presence.allSatisfy { $0["state"]?.stringValue == "offline" && $0["at"] == .int(at) })
        } while log.isWritingFirstList
        #expect(pieces == 3 && told.count == count && Set(told).count == count)
        let change = log.lines(for: Self.snapshot(at: .seconds(9), users: later))
        #expect(Self.lines(change, type: "presence").map { $0["user"]?.stringValue } == ["u3"])
    }

    @Test func theStatusLayoutCountsNoConnections() {
        var online = UserPresence(id: "ana")
        online.reportedOnline = true
        var offline = UserPresence(id: "ben")
        offline.reportedOnline = false
        var log = WatchLog()
        let lines = log.lines(for: Self.snapshot(users: [online, offline]))
        let presence = Self.lines(lines, type: "presence")
        #expect(presence.map { $0["connections"] } == [.null, .null], "a layout without connections says none")
        #expect(presence.map { $0["state"]?.stringValue } == ["online", "offline"])
        let summary = Self.lines(lines, type: "summary").first
        #expect(summary?["online"] == .int(1) && summary?["connections"] == .null)
        let figures = log.figures(for: Self.snapshot(users: [online, offline]))
        #expect(figures.totals.users == 2 && figures.connections == nil)
    }

    @Test func noUsersYetInTheStatusLayoutIsNoConnectionsNotZero() {
        var snapshot = Self.snapshot(users: [])
        snapshot.layoutsListConnections = false
        var log = WatchLog()
        #expect(Self.lines(log.lines(for: snapshot), type: "summary").first?["connections"] == .null)
        var documented = WatchLog()
        #expect(
            Self.lines(documented.lines(for: Self.snapshot(users: [])), type: "summary").first?["connections"]
                == .int(0))
    }

    @Test func severalDatabasesNameWhereEachUserIs() {
        var snapshot = Self.snapshot(users: [])
        var both = UserPresence(id: "kim", connections: [.init(id: "-Na"), .init(id: "-Nb")])
        both.sources = 0b11
        var second = UserPresence(id: "lee", connections: [.init(id: "-Nc")])
        second.sources = 0b10
        snapshot.users = PresenceList([both, second])
        snapshot.feeds = [
            WatchedFeed(name: "a:1 ns=a", identity: "x", status: Self.connected, listLoaded: true, users: 1),
            WatchedFeed(
                name: "b:2 ns=b", identity: "y", status: ConnectionStatus(phase: .offline), listLoaded: true, users: 2),
        ]
        var log = WatchLog()
        let lines = log.lines(for: snapshot)
        #expect(Self.lines(lines, type: "connection").map { $0["database"]?.stringValue } == ["a:1 ns=a", "b:2 ns=b"])
        let presence = Self.lines(lines, type: "presence")
        #expect(presence[0]["databases"] == ["a:1 ns=a", "b:2 ns=b"] && presence[1]["databases"] == ["b:2 ns=b"])
        let databases = Self.lines(lines, type: "summary").first?["databases"]?.arrayValue ?? []
        #expect(databases.map { $0["state"]?.stringValue } == ["connected", "offline"])
    }

    @Test func aSummaryTellsTheQueueAndHowFastItDrains() {
        var snapshot = Self.snapshot(users: [])
        snapshot.thisDevice = .init(
            user: "morgan", device: "this device", entryKey: nil, status: Self.connected,
            link: DeviceLink(mode: .up, conditions: "perfect"),
            pendingWrites: [QueuedWrite(id: 1, operation: "set", path: "/a", bytes: 10, enqueuedAt: Self.start)])
        var log = WatchLog()
        _ = log.lines(for: snapshot)
        log.note(WatchEvent(at: Self.start, .acknowledged(count: 20)))
        snapshot.takenAt = Self.start + .seconds(10)
        let summary = log.summary(for: snapshot)
        #expect(summary["pendingWrites"] == .int(1) && summary["pendingBytes"] == .int(10))
        #expect(summary["drainedPerSecond"] == .double(2))
        #expect(summary["databases"]?.arrayValue?.first?["clockSkewMs"] == .int(-40))
    }
}
