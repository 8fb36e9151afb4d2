import Dashboard
import PresenceModel
import RTDBCore
import Testing
import WatchModel

/// While a big first list arrives and is read, the Presence pane says so (with how much is in
/// while it arrives), not `no users yet`.
@Suite struct PresenceLoadingTests {
    @Test func anArrivingListShowsHowMuchIsIn() {
        var snapshot = Fixture.snapshot(users: [])
        var feed = ConnectionStatus(phase: .connected(sessionID: "watcher"), lastHeardAt: snapshot.takenAt)
        feed.arriving = .init(bytes: 24_536_678, fragments: 1_498, of: 3_830)
        snapshot.usersFeed.status = feed
        snapshot.usersFeed.loaded = false
        let state = Fixture.state(width: 120, height: 40, snapshot: snapshot)
        let screen = DashboardRenderer().render(state).text
        #expect(screen.contains("loading the list: 23.4 MiB received (39 %)"), "\(screen)")
        #expect(!screen.contains("no users yet"))
        #expect(screen.contains("Presence (loading…)") && !screen.contains("0 users"), "no count is true yet")
        // The users read from the fragments so far, once counted.
        snapshot.usersFeed.status?.arriving?.entries = 412_345
        let counted = DashboardRenderer().render(Fixture.state(width: 120, height: 40, snapshot: snapshot)).text
        #expect(counted.contains("loading the list: 412,345 users, 23.4 MiB (39 %)"), "\(counted)")
        // All in, being read: still loading.
        snapshot.usersFeed.status?.arriving = nil
        let reading = DashboardRenderer().render(Fixture.state(width: 120, height: 40, snapshot: snapshot)).text
        #expect(reading.contains("loading the list…") && !reading.contains("no users yet"), "\(reading)")
        // Not connected yet, nothing ever listed: no count, and no claim of an empty list.
        snapshot.usersFeed.status = ConnectionStatus(phase: .connecting(attempt: 1))
        let waiting = DashboardRenderer().render(Fixture.state(width: 120, height: 40, snapshot: snapshot)).text
        #expect(
            waiting.contains("Presence (loading…)") && waiting.contains("waiting for the server to list the users…"))
        #expect(!waiting.contains("no users yet") && !waiting.contains("0 users"), "\(waiting)")
        // Once the first list is here, the list says what it has.
        snapshot.usersFeed.loaded = true
        let after = DashboardRenderer().render(Fixture.state(width: 120, height: 40, snapshot: snapshot)).text
        #expect(after.contains("no users yet") && !after.contains("loading"), "\(after)")
        #expect(after.contains("Presence (0 users, 0 online, 0 connections)"), "the documented layout counts them")
        // The status layout lists no connections: with no users yet, no count of them either.
        snapshot.layoutsListConnections = false
        let status = DashboardRenderer().render(Fixture.state(width: 120, height: 40, snapshot: snapshot)).text
        #expect(status.contains("Presence (0 users, 0 online)") && !status.contains("0 connections"), "\(status)")
    }
}
