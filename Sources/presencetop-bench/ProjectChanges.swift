import Foundation
import PresenceLab
import PresenceModel
import RTDBCore

/// Presence changes written to the project's server once the list is in: one user at a time,
/// then one burst of many in one multi-path update, each timed until the frame that shows it.
struct ProjectChanges {
    let server: ProjectServer
    let layout: ProjectBenchmark.Shape
    let users: Int

    /// The writes that set user `index` online or offline, as members of a multi-path update at
    /// the layout's root.
    private func writes(_ index: Int, online: Bool, at time: Int64) -> JSONValue.Members {
        let id = ProjectServer.userID(index)
        switch layout {
        case .status:
            return [CodeUnitString(id): ProjectServer.status(online: online, at: time)]
        case .connections:
            let entries: JSONValue = online ? .object([CodeUnitString("-O\(id)conn02"): .bool(true)]) : .null
            return [CodeUnitString("\(id)/connections"): entries, CodeUnitString("\(id)/lastOnline"): .int(time)]
        }
    }

    /// Waits until the watcher's list shows user `index` in state `online`; the snapshot.
    private func waitUntil(_ running: Simulation, shows index: Int, online: Bool) async throws -> WatchSnapshot {
        let id = ProjectServer.userID(index)
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            let snapshot = running.snapshot()
            if snapshot.users[id: id]?.isOnline == online { return snapshot }
            try await Task.sleep(for: .microseconds(200))
        }
        throw CancellationError()
    }

    /// Times `changes` single changes and one burst of `burst` users.
    func measure(
        _ report: BenchReport, running: Simulation, screen: inout ProjectScreen, changes: Int, burst: Int
    ) async throws {
        var frames: [Double] = []
        var arrivals: [Double] = []
        for step in 0..<changes {
            let index = (step &* 7_919) % users
            let online = !(running.snapshot().users[id: ProjectServer.userID(index)]?.isOnline ?? false)
            let sent = ContinuousClock.now
            try await server.patch(
                root: layout, .object(writes(index, online: online, at: UnixTime.now().millisecondsSince1970)))
            let snapshot = try await waitUntil(running, shows: index, online: online)
            arrivals.append((ContinuousClock.now - sent).inMilliseconds)
            frames.append(screen.fold(snapshot))
        }
        if !frames.isEmpty {
            for percentile in [50, 99] {
                report.record("change_frame_p\(percentile)_ms", BenchSupport.percentile(frames, percentile))
                report.record("change_written_to_seen_p\(percentile)_ms", BenchSupport.percentile(arrivals, percentile))
            }
            report.say(
                String(
                    format:
                        "a presence change folded in and drawn: p50 %.2f ms, p99 %.2f ms (target: p99 ≤ 16 ms); written to seen by the watcher p50 %.1f ms",
                    BenchSupport.percentile(frames, 50), BenchSupport.percentile(frames, 99),
                    BenchSupport.percentile(arrivals, 50)))
        }
        guard burst > 0 else { return }
        // The burst: every burst user flips at once, in one multi-path update.
        let flipped = (0..<burst).map { $0 * (users / burst) }
        let before = running.snapshot().users
        var update = JSONValue.Members()
        let now = UnixTime.now().millisecondsSince1970
        for index in flipped {
            let online = !(before[id: ProjectServer.userID(index)]?.isOnline ?? false)
            update.merge(writes(index, online: online, at: now)) { _, new in new }
        }
        let last = flipped[flipped.count - 1]
        let lastOnline = !(before[id: ProjectServer.userID(last)]?.isOnline ?? false)
        let sent = ContinuousClock.now
        try await server.patch(root: layout, .object(update))
        let answered = (ContinuousClock.now - sent).inMilliseconds
        let snapshot = try await waitUntil(running, shows: last, online: lastOnline)
        let seen = (ContinuousClock.now - sent).inMilliseconds
        let frame = screen.fold(snapshot)
        let total = (ContinuousClock.now - sent).inMilliseconds
        report.record("burst_server_answered_ms", answered)
        report.record("burst_in_the_directory_ms", seen)
        let changed = snapshot.users.changes(from: before).count
        report.record("burst_users", burst)
        report.record("burst_users_changed_on_screen", changed)
        report.record("burst_to_screen_ms", total)
        report.record("burst_frame_ms", frame)
        report.say(
            String(
                format:
                    "a burst of %d users in one update: on screen after %.0f ms (target: ≤ 1,000 ms; the server answered the write after %.0f ms, the watcher's list had it after %.0f ms, then its frame %.1f ms); %d users changed",
                burst, total, answered, seen, frame, changed))
    }
}
