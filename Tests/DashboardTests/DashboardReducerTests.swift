import Dashboard
import Foundation
import PresenceModel
import RTDBCore
import Testing
import WatchModel

@Suite struct DashboardReducerTests {
    @Test func effectKeysAskTheSimulationAndChangeNothingElse() {
        var state = Fixture.state(width: 120, height: 40)
        let before = state
        let expected: [(Character, DashboardEffect)] = [
            ("n", .toggleNetwork), ("b", .toggleBlackhole), ("l", .toggleLatency), ("w", .queueWrites(1)),
            ("W", .queueWrites(100)), ("t", .runTransaction), ("+", .shiftClock(by: .seconds(1))),
            ("-", .shiftClock(by: .seconds(-1))), ("a", .toggleCredential), ("d", .addDevice), ("x", .crashDevice),
        ]
        for (key, effect) in expected {
            #expect(DashboardReducer.reduce(&state, .key(.character(key))) == [effect], "key \(key)")
        }
        #expect(state == before)
    }

    @Test func quitByQOrInterrupt() {
        for key in [KeyEvent.character("q"), .interrupt] {
            var state = Fixture.state(width: 80, height: 24)
            #expect(DashboardReducer.reduce(&state, .key(key)) == [.quit])
            #expect(state.exit.isQuitting)
        }
    }

    @Test func tabCyclesThePanesShownAndBackTabReturns() {
        var state = Fixture.state(width: 160, height: 48)
        state.panes.focused = .connection
        var seen: [Pane] = []
        for _ in 0..<5 {
            _ = DashboardReducer.reduce(&state, .key(.tab))
            seen.append(state.panes.focused)
        }
        #expect(seen == [.clock, .presence, .pending, .events, .connection])
        _ = DashboardReducer.reduce(&state, .key(.backTab))
        #expect(state.panes.focused == .events)
        // At 80×24 the events pane folds away, so focus skips it.
        var small = Fixture.state(width: 80, height: 24)
        small.panes.focused = .pending
        _ = DashboardReducer.reduce(&small, .key(.tab))
        #expect(small.panes.focused == .connection)
    }

    @Test func selectionMovesAndStopsAtTheEnds() {
        var state = Fixture.state(width: 120, height: 40)
        state.panes.focused = .presence
        _ = DashboardReducer.reduce(&state, .key(.up))
        #expect(state.presence.selectedUser == 0)
        for _ in 0..<3 { _ = DashboardReducer.reduce(&state, .key(.character("j"))) }
        #expect(state.presence.selectedUser == 3)
        _ = DashboardReducer.reduce(&state, .key(.end))
        #expect(state.presence.selectedUser == 4)
        _ = DashboardReducer.reduce(&state, .key(.pageDown))
        #expect(state.presence.selectedUser == 4)
        _ = DashboardReducer.reduce(&state, .key(.character("g")))
        #expect(state.presence.selectedUser == 0)
    }

    @Test func filterTypesNarrowsAndEscClears() {
        var state = Fixture.state(width: 120, height: 40)
        _ = DashboardReducer.reduce(&state, .key(.character("/")))
        #expect(state.presence.isEditingFilter)
        // While typing, letters are text: `n` does not take the network down.
        for character in "mor" { #expect(DashboardReducer.reduce(&state, .key(.character(character))).isEmpty) }
        #expect(state.visibleUsers.map(\.id) == ["morgan"])
        _ = DashboardReducer.reduce(&state, .key(.backspace))
        #expect(state.presence.filter == "mo")
        _ = DashboardReducer.reduce(&state, .key(.enter))
        #expect(!state.presence.isEditingFilter && state.presence.filter == "mo")
        _ = DashboardReducer.reduce(&state, .key(.escape))
        #expect(state.presence.filter.isEmpty && state.visibleUsers.count == 5)
    }

    @Test func filterMatchesDeviceNames() {
        var state = Fixture.state(width: 120, height: 40)
        state.presence.filter = "this"
        #expect(state.visibleUsers.map(\.id) == ["morgan"])
    }

    @Test func enterExpandsTheSelectedUser() {
        var state = Fixture.state(width: 120, height: 40)
        state.presence.selectedUser = 1
        _ = DashboardReducer.reduce(&state, .key(.enter))
        #expect(state.presence.expanded == ["casey"])
        _ = DashboardReducer.reduce(&state, .key(.enter))
        #expect(state.presence.expanded.isEmpty)
    }

    @Test func helpTogglesAndEscClosesIt() {
        var state = Fixture.state(width: 80, height: 24)
        _ = DashboardReducer.reduce(&state, .key(.character("?")))
        #expect(state.help.isShown)
        _ = DashboardReducer.reduce(&state, .key(.escape))
        #expect(!state.help.isShown)
    }

    @Test func themeKeyAsksForTheNextThemeAndWraps() {
        var state = Fixture.state(width: 80, height: 24)
        _ = DashboardReducer.reduce(&state, .themes(["default", "light", "mono"], current: "light"))
        #expect(DashboardReducer.reduce(&state, .key(.character("T"))) == [.useTheme("mono")])
        _ = DashboardReducer.reduce(&state, .themes(["default", "light", "mono"], current: "mono"))
        #expect(DashboardReducer.reduce(&state, .key(.character("T"))) == [.useTheme("default")])
    }

    @Test func aClickFocusesThePaneUnderIt() {
        var state = Fixture.state(width: 160, height: 48)
        let pending = state.layout.rect(for: .pending)!
        _ = DashboardReducer.reduce(&state, .key(.click(x: pending.x + 3, y: pending.y + 2)))
        #expect(state.panes.focused == .pending)
    }

    @Test func aClickOnAUserSelectsItAndEnterExpandsThatOne() throws {
        var state = Fixture.state(width: 160, height: 48)
        state.panes.focused = .pending
        let presence = try #require(state.layout.rect(for: .presence))
        let users = state.visibleUsers
        // The pane's border, then its header, then one row per user.
        _ = DashboardReducer.reduce(&state, .key(.click(x: presence.x + 4, y: presence.y + 2 + 2)))
        #expect(state.panes.focused == .presence)
        #expect(state.presence.selectedUser == 2)
        _ = DashboardReducer.reduce(&state, .key(.enter))
        #expect(state.presence.expanded == [users[2].id])
        // A click on the header or below the last user keeps the selection.
        _ = DashboardReducer.reduce(&state, .key(.click(x: presence.x + 4, y: presence.y + 1)))
        _ = DashboardReducer.reduce(&state, .key(.click(x: presence.x + 4, y: presence.maxY - 2)))
        #expect(state.presence.selectedUser == 2)
    }

    @Test func samplesOncePerSecondAndCountsTheDrain() {
        var state = Fixture.state(width: 120, height: 40)
        let first = state.samples.connection.values.count
        _ = DashboardReducer.reduce(&state, .event(WatchEvent(at: Fixture.eventTime, .acknowledged(count: 3))))
        _ = DashboardReducer.reduce(&state, .event(WatchEvent(at: Fixture.eventTime, .acknowledged(count: 2))))
        var later = Fixture.snapshot(connected: false, mode: .offline, pending: [Fixture.write(7, age: .seconds(1))])
        later.takenAt += .milliseconds(400)
        _ = DashboardReducer.reduce(&state, .snapshot(later))
        #expect(state.samples.connection.values.count == first, "the same second: no new sample")
        later.takenAt += .seconds(1)
        _ = DashboardReducer.reduce(&state, .snapshot(later))
        #expect(state.samples.connection.last == .disconnected)
        #expect(state.samples.queue.last == 1)
        #expect(state.samples.drain.last == 5)
        #expect(state.samples.peakDrain == 5)
        #expect(state.samples.acknowledgedThisSecond == 0)
    }

    @Test func eventsBecomeTimelineLinesButQueueDepthDoesNot() {
        var state = Fixture.state(width: 120, height: 40)
        _ = DashboardReducer.reduce(&state, .event(WatchEvent(at: Fixture.eventTime, .queue(depth: 4))))
        #expect(state.timeline.events.isEmpty)
        _ = DashboardReducer.reduce(
            &state, .event(WatchEvent(at: Fixture.eventTime, .link(device: "morgan/this device", mode: .offline))))
        _ = DashboardReducer.reduce(
            &state,
            .event(WatchEvent(at: Fixture.eventTime, .presence(.userOffline(user: "sam", lastOnline: .epoch)))))
        #expect(
            state.timeline.events.map(\.text) == [
                "morgan/this device  network lost (reset: both ends know at once)", "sam offline",
            ])
    }

    @Test func theTimelineKeepsItsNewestLines() {
        var state = Fixture.state(width: 120, height: 40)
        for index in 0..<(DashboardState.eventCapacity + 20) {
            _ = DashboardReducer.reduce(&state, .event(WatchEvent(at: Fixture.eventTime, .notice("n\(index)"))))
        }
        #expect(state.timeline.events.count == DashboardState.eventCapacity)
        #expect(state.timeline.events.first?.text == "n20")
    }

    /// Was: two lines per attempt ("connecting", "disconnected: …") pushed everything else out.
    @Test func reconnectAttemptsFoldIntoOneUpdatingLine() {
        var state = Fixture.state(width: 120, height: 40)
        _ = DashboardReducer.reduce(&state, .event(WatchEvent(at: Fixture.eventTime, .notice("before"))))
        for attempt in 1...12 {
            _ = DashboardReducer.reduce(
                &state,
                .event(
                    WatchEvent(
                        at: Fixture.eventTime,
                        .connection(.waitingToRetry(attempt: attempt, retryAt: .epoch, reason: "connection refused")))))
            _ = DashboardReducer.reduce(
                &state, .event(WatchEvent(at: Fixture.eventTime, .connection(.connecting(attempt: attempt + 1)))))
        }
        #expect(
            state.timeline.events.map(\.text) == [
                "before", "this device  connecting (attempt 13); last: connection refused",
            ])
        _ = DashboardReducer.reduce(
            &state, .event(WatchEvent(at: Fixture.eventTime, .connection(.connected(sessionID: "abcdefgh1")))))
        #expect(state.timeline.events.count == 3, "connected ends the story: \(state.timeline.events.map(\.text))")
        _ = DashboardReducer.reduce(
            &state,
            .event(
                WatchEvent(
                    at: Fixture.eventTime,
                    .connection(.waitingToRetry(attempt: 1, retryAt: .epoch, reason: "connection reset")))))
        #expect(state.timeline.events.count == 4, "a new outage is a new line")
    }

    /// Was: a notice made after a long gap between snapshots (a loaded machine) was counted from
    /// the last snapshot's time and gone at the next one, before it was ever drawn.
    @Test func aNoticeLivesItsWholeLifetimeFromTheFirstSnapshotAfterIt() {
        var state = Fixture.state(width: 120, height: 40)
        var snapshot = Fixture.snapshot()
        snapshot.access.isReadOnly = true
        _ = DashboardReducer.reduce(&state, .snapshot(snapshot))
        _ = DashboardReducer.reduce(&state, .key(.character("w")))
        #expect(state.timeline.notice?.text.contains("read-only") == true)
        snapshot.takenAt = Fixture.now + .seconds(10)
        _ = DashboardReducer.reduce(&state, .snapshot(snapshot))
        #expect(state.timeline.notice != nil, "10 s since the last snapshot, none since the notice")
        snapshot.takenAt = Fixture.now + .seconds(15)
        _ = DashboardReducer.reduce(&state, .snapshot(snapshot))
        #expect(state.timeline.notice != nil, "5 s shown")
        snapshot.takenAt = Fixture.now + .seconds(17)
        _ = DashboardReducer.reduce(&state, .snapshot(snapshot))
        #expect(state.timeline.notice == nil, "7 s shown: gone")
    }

    /// Was: on a server without rules `r` wrote another user's data, while the help said the
    /// rules refuse it.
    @Test func writingAnotherUsersPresenceAsksFirstWhereTheRulesAreNotKnown() {
        var state = Fixture.state(width: 120, height: 40)
        #expect(DashboardReducer.reduce(&state, .key(.character("r"))) == [.writeForbidden], "embedded: at once")
        var remote = Fixture.snapshot()
        remote.enforcesPresenceRules = false
        remote.server = "db.example.com:9000 ns=demo"
        _ = DashboardReducer.reduce(&state, .snapshot(remote))
        #expect(DashboardReducer.reduce(&state, .key(.character("r"))).isEmpty)
        #expect(state.timeline.notice?.text.contains("Press r again") == true)
        #expect(DashboardReducer.reduce(&state, .key(.character("r"))) == [.writeForbidden])
        // An answer too late asks again.
        #expect(DashboardReducer.reduce(&state, .key(.character("r"))).isEmpty)
        remote.takenAt += DashboardState.confirmationWindow + .seconds(1)
        _ = DashboardReducer.reduce(&state, .snapshot(remote))
        #expect(DashboardReducer.reduce(&state, .key(.character("r"))).isEmpty)
    }

    /// Was: below 120×32 the events were folded away, so `r` and `t` seemed to do nothing.
    @Test func whatAKeyDidShowsOnTheStatusLineWhereTheEventsDoNotFit() {
        let refused = Fixture.refused(7, reason: "no .write rule allows it")
        var small = Fixture.state(width: 80, height: 24)
        _ = DashboardReducer.reduce(&small, .event(WatchEvent(at: Fixture.eventTime, .deadLetter(refused))))
        #expect(
            small.timeline.notice?.text.contains("write 7 refused") == true,
            "\(String(describing: small.timeline.notice))")
        _ = DashboardReducer.reduce(
            &small,
            .event(WatchEvent(at: Fixture.eventTime, .presence(.userOffline(user: "sam", lastOnline: nil)))))
        #expect(
            small.timeline.notice?.text.contains("write 7 refused") == true, "presence changes are not a key's outcome")
        _ = DashboardReducer.reduce(
            &small, .event(WatchEvent(at: Fixture.eventTime, .link(device: "quinn/phone", mode: .blackhole))))
        #expect(small.timeline.notice?.text.contains("write 7 refused") == true, "nor another device's link")
        _ = DashboardReducer.reduce(
            &small, .event(WatchEvent(at: Fixture.eventTime, .link(device: "morgan/this device", mode: .offline))))
        #expect(small.timeline.notice?.text.contains("network lost") == true, "this device's link is")
        var large = Fixture.state(width: 160, height: 48)
        _ = DashboardReducer.reduce(&large, .event(WatchEvent(at: Fixture.eventTime, .deadLetter(refused))))
        #expect(large.timeline.notice == nil, "the events pane shows it")
        #expect(large.timeline.events.last?.text.contains("write 7 refused") == true)
    }

    /// Was: a 3 ms wobble filled the strip's height, and moving the clock ahead drew a drop.
    @Test func theSkewStripHasAScaleAndRisesWhenTheClockGoesAhead() {
        var state = Fixture.state(width: 160, height: 48)
        var second = 0
        func feed(_ offsets: [Double]) {
            for offset in offsets {
                second += 1
                var snapshot = Fixture.snapshot()
                snapshot.takenAt = Fixture.now + .seconds(second)
                snapshot.thisDevice?.status.clockSkew = .init(
                    offset: .milliseconds(offset), errorBound: .milliseconds(4), samples: 9)
                _ = DashboardReducer.reduce(&state, .snapshot(snapshot))
            }
        }
        feed([-200, -203, -201, -202, -200, -203])
        // The clock pane's strip: the last "history " on its row (the connection pane has one too).
        func strip() -> String {
            let row = DashboardRenderer().render(state).text.split(separator: "\n").first { $0.contains("ahead") } ?? ""
            return row.components(separatedBy: "history ").last ?? ""
        }
        #expect(strip().contains("+200 ms…+205 ms ahead"), "\(strip())")
        #expect(!strip().contains("█"), "a wobble of 3 ms stays near the middle: \(strip())")
        feed([-1_200, -1_200])
        #expect(strip().contains("+200 ms…+1.2 s ahead"), "\(strip())")
        #expect(strip().hasPrefix("▁") && strip().prefix(8).hasSuffix("█"), "a second ahead draws a rise: \(strip())")
    }

    /// Was: `user50` before `user9`, "1 connections", a filtered title counting everyone, and
    /// G in the events showing a single line.
    @Test func namesCountsAndScrollingReadAsAPersonExpects() {
        let names = ["user50", "user9", "user10", "alex"]
        let users = names.map { UserPresence(id: $0, connections: [], lastOnline: nil) }
        var state = Fixture.state(width: 160, height: 48, snapshot: Fixture.snapshot(users: users))
        #expect(state.visibleUsers.map(\.id) == ["alex", "user9", "user10", "user50"])
        _ = DashboardReducer.reduce(&state, .key(.character("/")))
        for character in "user1" { _ = DashboardReducer.reduce(&state, .key(.character(character))) }
        let title = DashboardRenderer().render(state).line(7)
        #expect(title.contains("(1 of 4 users, 0 online, 0 connections)"), "\(title)")
        let one = [
            UserPresence(
                id: "sam", connections: [.init(id: "c", device: "phone", connectedAt: .epoch)], lastOnline: nil)
        ]
        var single = Fixture.state(width: 160, height: 48, snapshot: Fixture.snapshot(users: one))
        let singular = DashboardRenderer().render(single).line(7)
        #expect(singular.contains("(1 user, 1 online, 1 connection)"), "\(singular)")

        for index in 0..<100 {
            _ = DashboardReducer.reduce(&single, .event(WatchEvent(at: Fixture.eventTime, .notice("n\(index)"))))
        }
        single.panes.focused = .events
        _ = DashboardReducer.reduce(&single, .key(.character("G")))
        let grid = DashboardRenderer().render(single)
        let events = grid.text.split(separator: "\n").filter { $0.contains("  n") && $0.contains(":") }
        #expect(events.count > 3, "G fills the pane: \(events.count) lines")
        #expect(grid.text.contains("newer above"), "the title says where it is")
    }

    /// R and X act on the selected refused write (↑/↓ in the Pending pane), c reconnects now.
    @Test func refusedWritesCanBeRetriedOrForgotten() {
        func letter(_ id: Int) -> QueuedWrite { Fixture.refused(id, reason: "no") }
        var state = Fixture.state(width: 160, height: 48)
        _ = DashboardReducer.reduce(&state, .key(.character("R")))
        #expect(state.timeline.notice?.text == "no refused write to act on")
        _ = DashboardReducer.reduce(&state, .snapshot(Fixture.snapshot(dead: [letter(5), letter(7)])))
        #expect(DashboardReducer.reduce(&state, .key(.character("R"))) == [.retryDeadLetter(7)], "the newest")
        state.panes.focused = .pending
        _ = DashboardReducer.reduce(&state, .key(.up))
        #expect(state.pending.selectedDeadLetter == 5)
        #expect(DashboardReducer.reduce(&state, .key(.character("X"))) == [.discardDeadLetter(5)])
        let grid = DashboardRenderer().render(state)
        let row = grid.text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex {
            $0.contains(" 5  set")
        }
        #expect(
            row.map { grid.roleRuns.split(separator: "\n")[$0].contains("selected") } == true, "the selection is marked"
        )
        #expect(DashboardReducer.reduce(&state, .key(.character("c"))) == [.reconnectNow])
    }

    /// `>` and `<` order the presence list by name, state, connections or last online.
    @Test func theListSortsByTheChosenKey() {
        let device = UserPresence.Connection(id: "c", device: "phone", connectedAt: .epoch)
        let users = [
            UserPresence(id: "bo", connections: [], lastOnline: UnixTime(millisecondsSince1970: 5_000)),
            UserPresence(id: "al", connections: [], lastOnline: UnixTime(millisecondsSince1970: 9_000)),
            UserPresence(id: "cy", connections: [device, device], lastOnline: nil),
            UserPresence(id: "di", connections: [device], lastOnline: nil),
        ]
        var state = Fixture.state(width: 160, height: 48, snapshot: Fixture.snapshot(users: users))
        #expect(state.visibleUsers.map(\.id) == ["al", "bo", "cy", "di"])
        _ = DashboardReducer.reduce(&state, .key(.character(">")))
        #expect(state.presence.sort == .state)
        #expect(state.visibleUsers.map(\.id) == ["cy", "di", "al", "bo"], "online first")
        _ = DashboardReducer.reduce(&state, .key(.character(">")))
        #expect(state.visibleUsers.map(\.id) == ["cy", "di", "al", "bo"], "most connections first")
        #expect(DashboardRenderer().render(state).text.contains("  N▾ DEVICES"), "the sorted column is marked")
        _ = DashboardReducer.reduce(&state, .key(.character(">")))
        #expect(state.visibleUsers.map(\.id) == ["cy", "di", "al", "bo"], "online now, then the most recent")
        _ = DashboardReducer.reduce(&state, .key(.character(">")))
        #expect(state.presence.sort == .name, "and round again")
        _ = DashboardReducer.reduce(&state, .key(.character("<")))
        #expect(state.presence.sort == .lastOnline)
    }

    /// Was: two T presses read in one batch both asked for the same next theme.
    @Test func twoQuickThemeKeysMoveTwoThemesOn() {
        var state = Fixture.state(width: 120, height: 40)
        _ = DashboardReducer.reduce(&state, .themes(["default", "ansi", "light"], current: "default"))
        #expect(DashboardReducer.reduce(&state, .key(.character("T"))) == [.useTheme("ansi")])
        #expect(DashboardReducer.reduce(&state, .key(.character("T"))) == [.useTheme("light")])
    }

    @Test func resizeKeepsTheSelectionInRange() {
        var state = Fixture.state(width: 120, height: 40)
        state.presence.selectedUser = 4
        let fewer = Fixture.snapshot(users: Fixture.users(count: 2))
        _ = DashboardReducer.reduce(&state, .snapshot(fewer))
        #expect(state.presence.selectedUser == 1)
        _ = DashboardReducer.reduce(&state, .resize(width: 60, height: 20))
        #expect(state.width == 60 && state.height == 20)
    }

    /// Was: `Presence (1000000 users, 0 connections)` with 300,000 online under the status
    /// layout, which lists no connections, and no online count anywhere.
    @Test func theTitleCountsOnlineUsersGroupsThousandsAndCountsNoConnectionsAStatusLayoutLacks() {
        let users = (0..<12_345).map { index in
            var user = UserPresence(id: "user\(index)")
            user.reportedOnline = index % 3 == 0
            return user
        }
        let state = Fixture.state(width: 160, height: 48, snapshot: Fixture.snapshot(users: users))
        let title = DashboardRenderer().render(state).line(7)
        #expect(title.contains("Presence (12,345 users, 4,115 online)"), "\(title)")
        #expect(!title.contains("connection"), "\(title)")
        let screen = DashboardRenderer().render(state).text
        let summary = screen.split(separator: "\n").first { $0.contains(" online 4,115 of 12,345 ") }
        #expect(summary?.contains("peak 4,115") == true && summary?.contains("connection") == false, "\(screen)")

        let listed = [
            UserPresence(id: "sam", connections: [.init(id: "a", device: "phone", connectedAt: .epoch)]),
            UserPresence(id: "kim"),
        ]
        let mixed = Fixture.state(width: 160, height: 48, snapshot: Fixture.snapshot(users: listed))
        #expect(DashboardRenderer().render(mixed).line(7).contains("Presence (2 users, 1 online, 1 connection)"))
        #expect(Format.grouped(1_000_000) == "1,000,000" && Format.grouped(-12_345) == "-12,345")
        #expect(Format.grouped(999) == "999" && Format.grouped(0) == "0")
    }
}
