import ArgumentParser
import Dashboard
import Foundation
import PresenceLab
import PresenceModel
import RTDBCore

/// `presencetop-bench project`: the dashboard watching a real app's size, read-only, as it
/// would watch your project, against a `presencetop serve --memory` in its own process: 100,000
/// users of about 1 KB each (a profile beside presence, the connections layout), or with
/// `--layout status` a million `status/<uid>` entries.
///
/// It reports the first full list, resident memory over the JSON downloaded (once loaded and at
/// its peak), a presence change folded in and drawn, a 10,000-user burst's time to the screen,
/// the keys' time to the screen, and the CPU while nothing changes.
struct ProjectBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "project",
        abstract:
            "The dashboard on 100,000 users × ~1 KB (or --layout status, 1,000,000): first list, memory, changes, a burst, keys, idle CPU."
    )

    /// The two shapes of presence measured.
    enum Shape: String, ExpressibleByArgument, CaseIterable {
        /// `users/<uid>` with a ~1 KB profile beside `connections` and `lastOnline`.
        case connections
        /// `status/<uid>` = `{state, last_changed}`.
        case status
    }

    @Option(help: "The presence layout: connections (100,000 users × ~1 KB) or status (1,000,000 status entries).")
    var layout = Shape.connections

    @Option(help: "Users under the presence root (default: 100,000 for connections, 1,000,000 for status).")
    var users: Int?

    @Option(help: "Presence changes written one at a time once the list is in, each timed to the screen.")
    var changes = 200

    @Option(help: "Users changed by the one multi-path update of the burst (0 skips it).")
    var burst = 10_000

    @Option(help: "Seconds of CPU measured while nothing changes (0 skips it).")
    var idleSeconds = 10

    @OptionGroup var options: BenchOptions

    var userCount: Int { users ?? (layout == .status ? 1_000_000 : 100_000) }

    func validate() throws {
        guard userCount > 0, userCount <= 5_000_000 else { throw ValidationError("--users must be 1...5,000,000") }
        guard changes >= 0, burst >= 0, burst <= userCount else {
            throw ValidationError("--changes must be ≥ 0 and --burst within 0...--users")
        }
        guard idleSeconds >= 0 else { throw ValidationError("--idle-seconds must be ≥ 0") }
    }

    func run() async throws {
        try await BenchReport.run("project", options: options) { try await measure($0) }
    }

    private func measure(_ report: BenchReport) async throws {
        // As the dashboard's process does from its start.
        HeapPolicy.mapLargeBlocksApart()
        let server = try await ProjectServer.start(report)
        // Written and read back by a child: none of that heap is in this process to be reused.
        let seeded = try await ProjectSeedCommand.run(port: server.port, layout: layout, users: userCount)
        let stored = seeded.stored
        report.record("layout", layout.rawValue)
        report.record("users", userCount)
        report.record("stored_bytes", stored)
        report.say(
            String(
                format: "%d users stored (%@ layout), %.1f MB of JSON", userCount, layout.rawValue, Double(stored) / 1e6
            ))

        report.record("server_rest_read_ms", seeded.readTime.inMilliseconds)
        report.say(
            String(
                format: "the server alone: the whole root read over REST in %.2f s (%.1f MB)",
                seeded.readTime.inSeconds, Double(seeded.readBytes) / 1e6))

        // Watched straight from the server, as `presencetop --url` watches it; what it downloads
        // is counted by the bytes this process read (Linux's rchar: sockets and files alike,
        // and nothing but the watcher reads while it loads).
        var simulation = SimulationOptions()
        simulation.server = .remote(
            ServerTarget(host: "127.0.0.1", port: server.port, namespace: ProjectServer.namespace))
        simulation.readOnly = true
        simulation.layout = layout == .status ? .statusNodes : .documented
        simulation.presencePath = simulation.layout.defaultRoot
        let readBefore = BenchSupport.bytesRead()
        BenchSupport.returnFreedMemory()
        let baseline = BenchSupport.residentBytes(of: getpid())
        let peakReset = BenchSupport.resetPeakResident()
        let start = ContinuousClock.now
        let running = try await Simulation.start(simulation)
        var snapshot = running.snapshot()
        while snapshot.users.count < userCount {
            try await Task.sleep(for: .milliseconds(10))
            snapshot = running.snapshot()
        }
        let listed = ContinuousClock.now - start
        // The first full list on screen: the index made and the frame drawn.
        var screen = ProjectScreen()
        let firstFold = screen.fold(snapshot)
        let firstList = ContinuousClock.now - start
        report.record("first_list_in_the_directory_ms", listed.inMilliseconds)
        report.record("first_fold_ms", firstFold)
        let downloaded = BenchSupport.bytesRead() - readBefore
        let residentAtFirstList = BenchSupport.residentBytes(of: getpid()) - baseline
        // Once loaded: the engine may still hold the message the list came in for a moment after
        // the directory has it (its 63 MB at a million, there in some runs and not in others).
        try await Task.sleep(for: .milliseconds(500))
        screen.fold(running.snapshot())
        let resident = BenchSupport.residentBytes(of: getpid()) - baseline
        report.record("resident_growth_at_first_list_bytes", residentAtFirstList)
        report.record("first_full_list_ms", firstList.inMilliseconds)
        report.record("downloaded_bytes", downloaded)
        report.record("resident_growth_bytes", resident)
        report.record("resident_over_json_ratio", Double(resident) / Double(max(1, downloaded)))
        report.say(
            String(
                format:
                    "first full list after %.2f s (target: %@; %.2f s to the directory, %.2f s more to index and draw); downloaded %.1f MB; memory once loaded +%.0f MB, %.2f× the JSON (target: ≤ 2×; +%.0f MB as the list was drawn)",
                firstList.inSeconds, layout == .status ? "4 s" : "1.5 s", listed.inSeconds, firstFold / 1e3,
                Double(downloaded) / 1e6,
                Double(resident) / 1e6, Double(resident) / Double(max(1, downloaded)), Double(residentAtFirstList) / 1e6
            ))
        if peakReset {
            let peak = BenchSupport.peakResidentBytes() - baseline
            report.record("peak_resident_growth_bytes", peak)
            report.record("peak_resident_over_json_ratio", Double(peak) / Double(max(1, downloaded)))
            report.say(
                String(
                    format: "  peak: +%.0f MB, %.2f× the JSON", Double(peak) / 1e6,
                    Double(peak) / Double(max(1, downloaded))))
        }

        try await ProjectChanges(server: server, layout: layout, users: userCount)
            .measure(report, running: running, screen: &screen, changes: changes, burst: burst)
        screen.measureKeys(report)
        if idleSeconds > 0 { try await idle(report, running: running, screen: &screen) }
        await running.stop()
    }

    /// The process's CPU while the list is in and nothing changes, a frame drawn a second as the
    /// dashboard draws its clocks.
    private func idle(_ report: BenchReport, running: Simulation, screen: inout ProjectScreen) async throws {
        // The process's own utime + stime, which keeps the time of threads that have ended (the
        // threads' schedstat sum does not); in clock ticks.
        let pid = "\(getpid())"
        let before = RenderBenchmark.cpuTicks(pid: pid) ?? 0
        let start = ContinuousClock.now
        for _ in 0..<idleSeconds {
            try await Task.sleep(for: .seconds(1))
            screen.fold(running.snapshot())
        }
        let ticks = (RenderBenchmark.cpuTicks(pid: pid) ?? 0) - before
        let percent =
            Double(ticks) / Double(sysconf(Int32(_SC_CLK_TCK))) / (ContinuousClock.now - start).inSeconds * 100
        report.record("idle_cpu_percent", percent)
        report.say(String(format: "idle: %.2f %% of a core over %d s (target: ≤ 1 %%)", percent, idleSeconds))
    }
}
