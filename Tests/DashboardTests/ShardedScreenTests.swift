import Dashboard
import Foundation
import PresenceModel
import RTDBCore
import Testing
import WatchModel

/// Several databases watched as one directory, on screen: each database's watcher in the
/// Connection pane, and a lost one's users marked as its, never turned offline.
@Suite struct ShardedScreenTests {
    static func user(_ id: String, online: Bool, sources: UInt64, onlineOn: UInt64) -> UserPresence {
        var user = UserPresence(
            id: id,
            connections: online ? [.init(id: "\(id)-1", device: "phone", connectedAt: Fixture.now - .seconds(30))] : [],
            lastOnline: online ? nil : Fixture.now - .seconds(90))
        (user.sources, user.onlineSources) = (sources, onlineOn)
        return user
    }

    static func state(lost: Bool) -> DashboardState {
        var snapshot = WatchSnapshot(
            takenAt: Fixture.now, server: "127.0.0.1:9001 ns=a",
            users: [
                user("ana", online: true, sources: 0b011, onlineOn: 0b011),
                user("bo", online: true, sources: 0b010, onlineOn: 0b010),
                user("cy", online: false, sources: 0b110, onlineOn: 0),
                user("dee", online: false, sources: 0b001, onlineOn: 0),
            ])
        snapshot.access = .init(identity: nil, isReadOnly: true, isLocal: false)
        let live = ConnectionStatus(phase: .connected(sessionID: "s"), lastHeardAt: Fixture.now - .seconds(1))
        let second =
            lost
            ? ConnectionStatus(
                phase: .waitingToRetry(attempt: 2, retryAt: Fixture.now + .seconds(2), reason: "connection refused"),
                lastHeardAt: Fixture.now - .seconds(40))
            : live
        snapshot.usersFeed.status = live
        snapshot.feeds = [
            WatchedFeed(
                name: "127.0.0.1:9001 ns=a", identity: "emulator user", status: live, listLoaded: true, users: 2),
            WatchedFeed(
                name: "127.0.0.1:9002 ns=b", identity: "emulator user", status: second, listLoaded: true, users: 3),
            WatchedFeed(
                name: "127.0.0.1:9003 ns=c", identity: "database secret (admin)", status: live, listLoaded: true,
                users: 1),
        ]
        return Fixture.state(width: 200, height: 32, snapshot: snapshot)
    }

    static func row(_ text: String, _ user: String) -> String {
        text.split(separator: "\n").first { $0.contains("│ \(user) ") }.map(String.init) ?? ""
    }

    @Test func aLostDatabaseMarksItsOwnUsersAndNoOneElse() {
        let text = DashboardRenderer().render(Self.state(lost: true)).text
        #expect(text.contains("2 connections)  stale: db 2"), "\(text)")
        // ana is online on a live database as well: online, unmarked.
        #expect(Self.row(text, "ana").contains("● online") && !Self.row(text, "ana").contains("stale"), "\(text)")
        // bo was online on the lost one only: still online as it said, marked as its.
        #expect(Self.row(text, "bo").contains("◐ online") && Self.row(text, "bo").contains("stale: db 2"), "\(text)")
        #expect(Self.row(text, "cy").contains("◐ offline") && Self.row(text, "cy").contains("stale: db 2"), "\(text)")
        #expect(Self.row(text, "dee").contains("○ offline") && !Self.row(text, "dee").contains("stale"), "\(text)")
        // The pane as a whole is not stale: two of three are live.
        #expect(!text.contains("stale: as of"), "\(text)")
        // Each database's watcher, numbered as the rows name them.
        #expect(text.contains("db 1 ● 127.0.0.1:9001 ns=a  2 users"), "\(text)")
        #expect(text.contains("db 2 ○ 127.0.0.1:9002 ns=b  lost: connection refused"), "\(text)")
        #expect(text.contains("db 3 ● 127.0.0.1:9003 ns=c  1 user as database secret (admin)"), "\(text)")
    }

    @Test func allLiveMarksNothing() {
        let text = DashboardRenderer().render(Self.state(lost: false)).text
        #expect(text.contains("db 3 ●") && !text.contains("stale"), "\(text)")
        #expect(Self.row(text, "bo").contains("● online"), "\(text)")
    }

    @Test func everyDatabaseLostIsAStalePane() {
        var state = Self.state(lost: true)
        let gone = ConnectionStatus(
            phase: .waitingToRetry(attempt: 1, retryAt: nil, reason: "connection refused"),
            lastHeardAt: Fixture.now - .seconds(30))
        for index in state.snapshot?.feeds.indices ?? 0..<0 { state.snapshot?.feeds[index].status = gone }
        let text = DashboardRenderer().render(state).text
        #expect(text.contains("stale: as of"), "\(text)")
    }

    @Test func aRefusedListIsNamed() {
        var state = Self.state(lost: false)
        state.snapshot?.feeds[2].refusal = "Permission denied"
        state.snapshot?.feeds[2].listLoaded = false
        let text = DashboardRenderer().render(state).text
        #expect(text.contains("refused: db 3"), "\(text)")
        #expect(text.contains("db 3 ● 127.0.0.1:9003 ns=c  list refused: Permission denied"), "\(text)")
    }

    /// Was: under rules that refuse the watcher, `loading the list…` for ever.
    @Test func oneDatabaseThatRefusesTheListSaysSoInThePresencePane() {
        var snapshot = WatchSnapshot(takenAt: Fixture.now, server: "127.0.0.1:9001 ns=a")
        snapshot.usersFeed.status = ConnectionStatus(phase: .connected(sessionID: "s"), lastHeardAt: Fixture.now)
        snapshot.usersFeed.loaded = false
        snapshot.usersFeed.refusal = "Permission denied"
        let text = DashboardRenderer().render(Fixture.state(width: 160, height: 32, snapshot: snapshot)).text
        #expect(text.contains("the server refused the list: Permission denied"), "\(text)")
        #expect(!text.contains("loading"), "\(text)")
    }
}
