import Foundation
import RTDBCore
import RTDBTestSupport
import Testing

/// `presencetop-bench` as a user runs it: the figures (not their values: tests assert no timing)
/// and the clean-up of what a run started.
@Suite struct BenchProcessTests {
    @Test func jsonIsOneObjectWithTheMachineAndTheFigures() async throws {
        let bench = try await ChildProcess(
            ChildProcess.bench, ["client-events", "--writes", "50", "--load-children", "100", "--json"])
        #expect(try await bench.waitForExit(seconds: 120) == 0, "\(bench.standardError)")
        let lines = bench.standardOutput.split(separator: "\n")
        #expect(lines.count == 1, "only the object: \(bench.standardOutput)")
        let object = try JSONParser.parse(String(lines.first ?? ""))
        #expect(object["benchmark"] == "client-events")
        #expect(object["machine"]?["cores"]?.intValue ?? 0 >= 1)
        for key in ["set_to_child_changed_p50_us", "set_to_child_changed_p99_us", "initial_load_ms"] {
            #expect(object[key]?.numberValue != nil, "\(key) in \(object)")
        }
    }

    /// Options that would leave a benchmark nothing to measure are refused, each by its name.
    @Test func serverWritesRefusesRoundsAndCountsItCannotRun() async throws {
        for (arguments, named) in [
            (["--rounds", "0"], "--rounds"), (["--rounds", "-3"], "--rounds"),
            (["--connections", "0"], "--connections"),
            (["--writes", "5", "--rounds", "6"], "--writes"),
        ] {
            let bench = try await ChildProcess(ChildProcess.bench, ["server-writes"] + arguments)
            #expect(try await bench.waitForExit(seconds: 60) != 0, "\(arguments)")
            #expect(bench.standardError.contains(named), "\(arguments): \(bench.standardError)")
        }
    }

    /// The presence load generator opens its clients against a `serve` child and sees every
    /// entry go after the mass disconnect (counts, not times: tests assert no timing).
    @Test func thePresenceLoadGeneratorSeesItsClientsComeAndGo() async throws {
        let arguments = ["presence", "--clients", "60", "--rate", "100", "--seconds", "0.5", "--json"]
        var bench = try await ChildProcess(ChildProcess.bench, arguments)
        var status = try await bench.waitForExit(seconds: 120)
        if status != 0, bench.standardError.contains("I/O on closed channel") {
            // A loaded CI run once saw one of the generator's own connections closed under it
            // (cause not yet found; #33 takes up the load generator). Run once more, and say so.
            print("bench presence: \(bench.standardError.trimmingCharacters(in: .whitespacesAndNewlines)); once more")
            bench = try await ChildProcess(ChildProcess.bench, arguments)
            status = try await bench.waitForExit(seconds: 120)
        }
        #expect(status == 0, "\(bench.standardError)")
        let object = try JSONParser.parse(String(bench.standardOutput.split(separator: "\n").last ?? ""))
        #expect(object["clients_connected"] == 60, "\(object)")
        #expect(object["mass_disconnect_complete"] == "yes", "\(object)")
        for key in ["server_bytes_per_connection", "fan_out_p50_us", "mass_disconnect_applied_ms", "descriptor_limit"] {
            #expect(object[key]?.numberValue != nil, "\(key) in \(object)")
        }
    }

    static var heaptrackEnabled: Bool {
        ProcessInfo.processInfo.environment["CI"] == "true"
            || FileManager.default.fileExists(atPath: "/usr/bin/heaptrack")
    }

    /// The heap probe: the server runs under heaptrack, the profile is written whole once the
    /// server is stopped, and no server is left running.
    @Test(.enabled(if: heaptrackEnabled, "needs heaptrack (installed by .ci/run; required when CI=true)"))
    func theHeapProbeWritesAProfileAndLeavesNoServer() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let profile = directory.appendingPathComponent("server").path
        let bench = try await ChildProcess(
            ChildProcess.bench,
            ["presence", "--clients", "20", "--rate", "50", "--seconds", "0.3", "--heap-profile", profile])
        // Longer than the bench's own waits (120 s for the server under heaptrack to answer, 60 s
        // for it to stop), so that a slow start ends with the bench's message, not this timeout.
        #expect(try await bench.waitForExit(seconds: 240) == 0, "\(bench.standardError)")
        #expect(bench.standardOutput.contains("heap profile: \(profile).zst"), "\(bench.standardOutput)")
        let size = (try? FileManager.default.attributesOfItem(atPath: profile + ".zst")[.size] as? Int) ?? 0
        #expect(size > 0, "the profile was written")
        #expect(try await eventually { !Self.serversMarked() }, "the server under heaptrack stopped")
    }

    /// Whether a server started under heaptrack by a bench is still running.
    static func serversMarked() -> Bool {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.filter { Int($0) != nil }.contains { pid in
            guard let command = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline"),
                let environment = FileManager.default.contents(atPath: "/proc/\(pid)/environ")
            else { return false }
            return String(decoding: command, as: UTF8.self).contains("serve")
                && String(decoding: environment, as: UTF8.self).contains("PRESENCETOP_BENCH_HEAP_SERVER=")
        }
    }

    /// Was: `bench render` left its tmux server and a dashboard running after it was stopped.
    @Test(.enabled(if: DashboardTmuxTests.enabled, "needs tmux (installed by .ci/run; required when CI=true)"))
    func anInterruptedRunLeavesNothingRunning() async throws {
        let bench = try await ChildProcess(
            ChildProcess.bench, ["render", "--frames", "5", "--users", "10", "--idle-seconds", "30"])
        // The dashboard starts in tmux; the run then waits 5 s for it to settle. It is running
        // before the interrupt (else the checks below would prove nothing).
        let socket = "presencetop-bench-\(bench.pid)"
        #expect(try await eventually { !Self.dashboards(of: socket).isEmpty }, "the dashboard started")
        kill(bench.pid, SIGINT)
        #expect(try await bench.waitForExit(seconds: 30) == 128 + SIGINT)
        #expect(bench.standardError.contains("render: interrupted; cleaning up"), "\(bench.standardError)")
        let folder = ProcessInfo.processInfo.environment["TMUX_TMPDIR"] ?? "/tmp"
        let sockets = (try? FileManager.default.contentsOfDirectory(atPath: "\(folder)/tmux-\(getuid())")) ?? []
        #expect(!sockets.contains { $0.hasPrefix(socket + "-") }, "the socket")
        // SIGTERM is sent to the dashboard: give it a moment to restore its terminal and go.
        #expect(try await eventually { Self.dashboards(of: socket).isEmpty }, "\(Self.dashboards(of: socket))")
    }

    /// Processes whose environment names one of the run's scratch folders (a dashboard's state home).
    static func dashboards(of socket: String) -> [String] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.filter { Int($0) != nil }.filter { pid in
            guard let environment = FileManager.default.contents(atPath: "/proc/\(pid)/environ") else { return false }
            return String(decoding: environment, as: UTF8.self).contains("/\(socket)-")
        }
    }
}
