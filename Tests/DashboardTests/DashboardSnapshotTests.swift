import Dashboard
import Foundation
import PresenceModel
import RTDBCore
import SnapshotTesting
import Testing
import WatchModel

/// The screen as text (and its roles as runs) at the two sizes of the design card; the
/// references live in `__Snapshots__` and CI never records (`SNAPSHOT_TESTING_RECORD=never`).
@Suite struct DashboardSnapshotTests {
    static var screen: Snapshotting<CellGrid, String> { Snapshotting<String, String>.lines.pullback { $0.text } }
    static var roles: Snapshotting<CellGrid, String> { Snapshotting<String, String>.lines.pullback { $0.roleRuns } }

    static func busyState(width: Int, height: Int) -> DashboardState {
        let dead = Fixture.refused(17, reason: "rules refused the write")
        let snapshot = Fixture.snapshot(
            pending: [Fixture.write(21, age: .seconds(4)), Fixture.write(22, age: .seconds(3), state: .inFlight)],
            dead: [dead])
        var state = Fixture.state(width: width, height: height, snapshot: snapshot)
        _ = DashboardReducer.reduce(
            &state,
            .event(
                WatchEvent(
                    at: UnixTime(millisecondsSince1970: 1_795_356_290_000),
                    .presence(.userOffline(user: "jordan", lastOnline: nil)))))
        _ = DashboardReducer.reduce(
            &state,
            .event(WatchEvent(at: UnixTime(millisecondsSince1970: 1_795_356_295_000), .acknowledged(count: 10))))
        return state
    }

    @Test func wide160x48() {
        let grid = DashboardRenderer().render(Self.busyState(width: 160, height: 48))
        assertSnapshot(of: grid, as: Self.screen, named: "screen")
        assertSnapshot(of: grid, as: Self.roles, named: "roles")
    }

    @Test func compact80x24() {
        let grid = DashboardRenderer().render(Self.busyState(width: 80, height: 24))
        assertSnapshot(of: grid, as: Self.screen, named: "screen")
    }

    @Test func offlineWithQueuedWrites() {
        let writes = (1...5).map { Fixture.write($0, age: .seconds(6 - $0)) }
        let state = Fixture.state(
            width: 80, height: 24, snapshot: Fixture.snapshot(connected: false, mode: .offline, pending: writes))
        let grid = DashboardRenderer().render(state)
        #expect(grid.text.contains("○ disconnected"))
        #expect(grid.text.contains("Pending writes (5)"))
        assertSnapshot(of: grid, as: Self.screen, named: "screen")
    }

    /// The queue's bytes against its bound: muted, then a warning past four fifths, then bad at
    /// the bound (where writes fail with `queue_full`).
    @Test func theQueueShowsItsBytesOfItsBound() throws {
        let writes = (1...5).map { Fixture.write($0, age: .seconds(6 - $0)) }
        func line(bound: Int) throws -> (text: String, role: StyleRole) {
            var snapshot = Fixture.snapshot(connected: false, mode: .offline, pending: writes)
            snapshot.thisDevice?.pendingBytesBound = bound
            let grid = DashboardRenderer().render(Fixture.state(width: 80, height: 24, snapshot: snapshot))
            let row = try #require((0..<grid.height).first { grid.line($0).contains("Pending writes (5)") })
            let column = try #require(
                grid.line(row).range(of: "235 B").map {
                    grid.line(row).distance(from: grid.line(row).startIndex, to: $0.lowerBound)
                })
            return (grid.line(row), grid[column, row].role)
        }
        let roomy = try line(bound: 4096)
        #expect(roomy.text.contains("Pending writes (5)  235 B of 4 KiB"), "\(roomy.text)")
        #expect(roomy.role == .muted)
        #expect(try line(bound: 280).role == .warn)
        let full = try line(bound: 235)
        #expect(full.text.contains("235 B of 235 B"))
        #expect(full.role == .bad)
    }

    /// The server has gone quiet: the presence list and the clock are drawn dimmed, and their
    /// titles say since when nothing was confirmed.
    @Test func staleFeedsAreMarked() {
        var snapshot = Fixture.snapshot(connected: false, mode: .offline)
        snapshot.usersFeed.status = ConnectionStatus(
            phase: .waitingToRetry(attempt: 2, retryAt: Fixture.now + .seconds(1), reason: "connection refused"),
            lastHeardAt: Fixture.now - .seconds(20))
        let state = Fixture.state(width: 120, height: 32, snapshot: snapshot)
        let grid = DashboardRenderer().render(state)
        #expect(grid.text.contains("stale: as of"))
        assertSnapshot(of: grid, as: Self.screen, named: "screen")
        assertSnapshot(of: grid, as: Self.roles, named: "roles")
        // A live feed is not marked.
        snapshot.usersFeed.status = ConnectionStatus(
            phase: .connected(sessionID: "s"), lastHeardAt: Fixture.now - .seconds(1))
        let live = DashboardRenderer().render(Fixture.state(width: 120, height: 32, snapshot: snapshot))
        #expect(!live.line(8).contains("stale"), "\(live.line(8))")
    }

    /// Was: at 80×24 the help was cut (G, /, Enter, Esc, T, q unreachable), could not scroll, and
    /// keys acted behind it (`n` toggled the network).
    @Test func theHelpScrollsAndTakesTheKeysAt80x24() {
        var state = Fixture.state(width: 80, height: 24)
        _ = DashboardReducer.reduce(&state, .key(.character("?")))
        var grid = DashboardRenderer().render(state)
        #expect(grid.text.contains("more below"), "\(grid.text)")
        #expect(DashboardReducer.reduce(&state, .key(.character("n"))).isEmpty, "n does nothing behind the help")
        #expect(state.help.isShown)
        _ = DashboardReducer.reduce(&state, .key(.character("G")))
        grid = DashboardRenderer().render(state)
        for label in ["quit (also Ctrl-C)", "next theme", "this help"] {
            #expect(grid.text.contains(label), "\(label) reachable at the bottom")
        }
        #expect(!grid.text.contains("more below"))
        assertSnapshot(of: grid, as: Self.screen, named: "screen")
        // Every binding is reachable by scrolling.
        _ = DashboardReducer.reduce(&state, .key(.character("g")))
        var seen = Set<String>()
        let live = KeyMap.bindings.filter { $0.mode == .always }
        for _ in 0..<live.count {
            let text = DashboardRenderer().render(state).text
            for binding in live where text.contains(binding.help) { seen.insert(binding.help) }
            _ = DashboardReducer.reduce(&state, .key(.down))
        }
        #expect(seen.count == live.count)
        _ = DashboardReducer.reduce(&state, .key(.escape))
        #expect(!state.help.isShown)
        #expect(DashboardReducer.reduce(&state, .key(.character("n"))) == [.toggleNetwork], "n acts once it is closed")
    }

    @Test func helpOverlay() {
        // Tall enough for every key at once (the 80×24 test scrolls).
        var state = Fixture.state(width: 80, height: 39)
        _ = DashboardReducer.reduce(&state, .key(.character("?")))
        let grid = DashboardRenderer().render(state)
        for binding in KeyMap.bindings where binding.mode == .always {
            #expect(grid.text.contains(binding.help), "\(binding.label)")
        }
        assertSnapshot(of: grid, as: Self.screen, named: "screen")
    }

    @Test func tooSmallSaysSo() {
        let grid = DashboardRenderer().render(Fixture.state(width: 40, height: 10))
        #expect(grid.text.contains("terminal too small (need 50×16)"))
        #expect(grid.text.contains("now 40×10"))
    }

    @Test func everySizeFromTheMinimumUpStaysInsideTheGrid() {
        for (width, height) in [(50, 16), (60, 20), (80, 24), (119, 31), (120, 32), (200, 60)] {
            let grid = DashboardRenderer().render(Self.busyState(width: width, height: height))
            let lines = grid.text.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(lines.count == height)
            #expect(lines.allSatisfy { CellGrid.columns(of: String($0)) <= width }, "\(width)×\(height)")
            for title in ["Connection", "Clock skew", "Presence", "Pending writes"] {
                #expect(grid.text.contains(title), "\(title) at \(width)×\(height)")
            }
        }
    }

    @Test func asciiGlyphsDrawOnlyASCII() {
        let grid = DashboardRenderer(glyphs: .ascii).render(Self.busyState(width: 160, height: 48))
        let foreign = grid.text.filter { !$0.isASCII }
        #expect(foreign.isEmpty, "non-ASCII: \(Set(foreign))")
        #expect(grid.text.contains("* connected"))
        #expect(grid.text.contains("+- Connection"))
    }

    @Test func theSelectedRowCarriesTheCursor() {
        var state = Self.busyState(width: 160, height: 48)
        state.panes.focused = .presence
        state.presence.selectedUser = 2
        let grid = DashboardRenderer().render(state)
        let cursor = try! #require(grid.cursor)
        #expect(grid.line(cursor.y).contains("jordan"))
        #expect(grid[cursor.x + 2, cursor.y].role == .selected)
    }

    @Test func suspectConnectionsAreMarked() {
        let grid = DashboardRenderer().render(Self.busyState(width: 160, height: 48))
        let casey = grid.text.split(separator: "\n").first { $0.contains("casey") }
        #expect(casey?.contains("suspect 3.1 s") == true, "\(casey ?? "")")
        let alex = grid.text.split(separator: "\n").first { $0.contains("alex ") }
        #expect(alex?.contains("suspect") == false)
    }
}

extension DashboardSnapshotTests {
    /// The Cache view (C): sizes by path, tracked queries, the next prune; keys close it.
    @Test func theCacheViewShowsSizesQueriesAndTheNextPrune() {
        var state = Fixture.state(width: 100, height: 30, snapshot: Fixture.snapshot(connected: true, mode: .up))
        _ = DashboardReducer.reduce(&state, .key(.character("C")))
        #expect(state.views.shown == .cache)
        #expect(DashboardRenderer().render(state).text.contains("reading the cache…"))
        let cache = CacheSummary(
            totalBytes: 12_800, limitBytes: 10_485_760,
            bytesByPath: [.init(path: "users", bytes: 9_000), .init(path: "notes", bytes: 3_800)],
            queries: [
                .init(
                    path: "/users", query: "default", complete: true, active: true, keepSynced: false,
                    lastUse: Fixture.now - .seconds(2)),
                .init(
                    path: "/notes/morgan", query: "default", complete: true, active: false, keepSynced: false,
                    lastUse: Fixture.now - .seconds(300)),
            ], nextPrune: ["/notes/morgan$default"], pruneDue: false)
        _ = DashboardReducer.reduce(&state, .cache(cache))
        let grid = DashboardRenderer().render(state)
        assertSnapshot(of: grid, as: Self.screen, named: "screen")
        #expect(grid.text.contains("12 KiB of 10.0 MiB"))
        _ = DashboardReducer.reduce(&state, .key(.character("n")))
        #expect(state.views.shown == .cache, "keys behind the view do nothing")
        _ = DashboardReducer.reduce(&state, .key(.escape))
        #expect(state.views.shown == nil, "Esc closes it")
        _ = DashboardReducer.reduce(&state, .key(.character("C")))
        _ = DashboardReducer.reduce(&state, .cache(nil))
        #expect(DashboardRenderer().render(state).text.contains("without persistence"))
    }

    /// A store that does not take writes (a full disk) is said first in the Cache view.
    @Test func theCacheViewSaysWhenTheStoreDoesNotTakeWrites() {
        var state = Fixture.state(width: 120, height: 30, snapshot: Fixture.snapshot(connected: true, mode: .up))
        _ = DashboardReducer.reduce(&state, .key(.character("C")))
        let failing = CacheSummary(
            totalBytes: 4_096, limitBytes: 10_485_760, bytesByPath: [], queries: [], nextPrune: [], pruneDue: false,
            storeFailing: (Fixture.now - .seconds(12), "SQLite error 13: database or disk is full"))
        _ = DashboardReducer.reduce(&state, .cache(failing))
        let lines = DashboardRenderer().render(state).text.split(separator: "\n")
        let said = lines.firstIndex { $0.contains("the store does not take writes (since 12s)") }
        let reason = said.map { lines[$0 + 1] }
        #expect(
            reason?.contains("SQLite error 13: database or disk is full") == true, "\(lines.joined(separator: "\n"))")
    }

    /// While this device's store fails, the pending pane's title says so with the view closed.
    @Test func thePendingPaneSaysWhenTheStoreFails() {
        var snapshot = Fixture.snapshot(connected: true, mode: .up)
        var state = Fixture.state(width: 120, height: 30, snapshot: snapshot)
        #expect(!DashboardRenderer().render(state).text.contains("store failing"))
        snapshot.thisDevice?.storeFailing = "SQLite error 13: database or disk is full"
        _ = DashboardReducer.reduce(&state, .snapshot(snapshot))
        #expect(DashboardRenderer().render(state).text.contains("Pending writes (0)"))
        #expect(DashboardRenderer().render(state).text.contains("store failing"))
    }
}

extension DashboardSnapshotTests {
    /// The onDisconnect view (O): who the operations run as, and each with the server's verdict.
    @Test func theOnDisconnectViewShowsWhatWouldRun() {
        var state = Fixture.state(width: 100, height: 24, snapshot: Fixture.snapshot(connected: true, mode: .up))
        _ = DashboardReducer.reduce(&state, .key(.character("O")))
        #expect(state.views.shown == .onDisconnect)
        #expect(DashboardRenderer().render(state).text.contains("asking the server…"))
        let summary = OnDisconnectSummary(
            operations: [
                .init(
                    path: "/users/morgan/connections/-Nx1", kind: "remove", registeredAt: Fixture.now - .seconds(40),
                    verdict: .runs),
                .init(
                    path: "/users/morgan/lastOnline", kind: "set", registeredAt: Fixture.now - .seconds(40),
                    verdict: .refused("the rules refuse it now: .write at /users/$uid")),
            ], runsAs: "morgan", credentialExpiresAt: Fixture.now + .seconds(120))
        _ = DashboardReducer.reduce(&state, .onDisconnect(summary))
        let grid = DashboardRenderer().render(state)
        assertSnapshot(of: grid, as: Self.screen, named: "screen")
        #expect(grid.text.contains("runs as morgan"))
        #expect(grid.text.contains("↳ the rules refuse it now: .write at /users/$uid"), "\(grid.text)")
        // C switches to the other view; O twice closes.
        _ = DashboardReducer.reduce(&state, .key(.character("C")))
        #expect(state.views.shown == .cache)
        _ = DashboardReducer.reduce(&state, .key(.character("O")))
        _ = DashboardReducer.reduce(&state, .key(.character("O")))
        #expect(state.views.shown == nil)
        _ = DashboardReducer.reduce(&state, .key(.character("O")))
        _ = DashboardReducer.reduce(&state, .onDisconnect(OnDisconnectSummary(problem: "DISCONNECT: not connected")))
        #expect(DashboardRenderer().render(state).text.contains("the server could not be asked"))
    }
}

extension DashboardSnapshotTests {
    /// The Rules view (S): the server's rules file with each rule's counts, and the latest denials.
    @Test func theRulesViewShowsCountsAndDenials() {
        var state = Fixture.state(width: 100, height: 30, snapshot: Fixture.snapshot(connected: true, mode: .up))
        _ = DashboardReducer.reduce(&state, .key(.character("S")))
        #expect(state.views.shown == .rules)
        #expect(DashboardRenderer().render(state).text.contains("asking the server…"))
        let summary = RulesSummary(
            file: "presence.rules.json",
            lines: [
                .init(number: 1, text: #"{"rules": {"#),
                .init(number: 2, text: #"  "users": {"#),
                .init(number: 3, text: #"    ".read": "auth != null","#, hasRule: true, held: 14),
                .init(number: 4, text: #"    "$uid": {"#),
                .init(
                    number: 5, text: #"      ".write": "auth != null && auth.uid == $uid","#, hasRule: true, held: 31,
                    failed: 2),
                .init(number: 6, text: #"      ".validate": "newData.val() / 0 > 1""#, hasRule: true, errors: 1),
                .init(number: 7, text: #"      "admin": { ".write": false }"#, hasRule: true),
                .init(number: 8, text: "}}}"),
            ], ruleCount: 4, rulesEvaluated: 3,
            denials: [
                .init(
                    at: Fixture.now - .seconds(5), who: "uid morgan", path: "/users/sam/connections/-Nx1",
                    operation: "set",
                    rule: .init(place: "presence.rules.json:5:18", text: ".write auth != null && auth.uid == $uid"),
                    message: "no .write rule allows writing /users/sam/connections/-Nx1 (uid morgan)"),
                .init(
                    at: Fixture.now - .seconds(9), who: "signed out", path: "/elsewhere", operation: "read", rule: nil,
                    message: "no .read rule allows reading /elsewhere (signed out)"),
            ], deniedTotal: 3)
        _ = DashboardReducer.reduce(&state, .rules(summary))
        let grid = DashboardRenderer().render(state)
        assertSnapshot(of: grid, as: Self.screen, named: "screen")
        let lines = grid.text.split(separator: "\n")
        #expect(lines.contains { $0.contains("31") && $0.contains("2") && $0.contains("auth.uid == $uid") })
        #expect(lines.contains { $0.contains("never evaluated") && $0.contains(#""admin""#) })
        #expect(grid.text.contains("↳ refused by presence.rules.json:5:18  .write auth != null && auth.uid == $uid"))
        #expect(grid.text.contains("no rule grants it (refused by default)"))
        // S twice closes; a problem says so.
        _ = DashboardReducer.reduce(&state, .key(.character("S")))
        #expect(state.views.shown == nil)
        _ = DashboardReducer.reduce(&state, .key(.character("S")))
        _ = DashboardReducer.reduce(&state, .rules(RulesSummary(problem: "the server answered 404")))
        #expect(
            DashboardRenderer().render(state).text.contains("the server could not be asked: the server answered 404"))
    }
}
