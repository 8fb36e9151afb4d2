import ArgumentParser
import ChildProcesses
import Foundation
import HummingbirdWSClient
import Logging
import RTDBCore
import RTDBWire
import Synchronization

/// Many protocol-v5 clients running the presence flow against `presencetop serve` in its own
/// process: how fast they connect, what each costs the server, how fast a directory listener
/// hears of changes, and how long a mass disconnect takes to be applied.
struct PresenceBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "presence",
        abstract: "N presence clients against a serve process: connect rate, fan-out latency, memory, mass disconnect."
    )

    /// Published figure beside the memory: Centrifugo's ~30 KB per connection at 1M connections.
    static let publishedBytesPerConnection = 30_000.0

    /// The environment variable that marks a server run under heaptrack.
    static let heapMark = "PRESENCETOP_BENCH_HEAP_SERVER"

    @Option(help: "Presence clients to open (each its own WebSocket).")
    var clients = 10_000

    @Option(help: "Presence changes a second while the fan-out latency is measured.")
    var rate = 1_000

    @Option(help: "Seconds the fan-out latency is measured.")
    var seconds = 5.0

    @Option(
        help: ArgumentHelp(
            "Run the server under heaptrack, writing its heap profile to this path (heaptrack adds .zst); the memory figure is then not measured.",
            valueName: "path"))
    var heapProfile: String?

    @OptionGroup var options: BenchOptions

    func run() async throws {
        try await BenchReport.run("presence", options: options) { try await measure($0) }
    }

    private func measure(_ report: BenchReport) async throws {
        let limit = BenchSupport.raiseDescriptorLimit()
        report.record("descriptor_limit", limit)
        let wanted = min(clients, max(0, limit - 200))
        if wanted < clients { report.say("the descriptor limit (\(limit)) allows \(wanted) of \(clients) clients") }
        let (server, port) = try await startServer(report)
        let url = "ws://127.0.0.1:\(port)/.ws?v=5&ns=presence"
        let baseline = BenchSupport.residentBytes(of: server.pid)

        // The directory listener: every change under `users` reaches it.
        let directory = try await DirectoryListener.start(url: url)
        let start = ContinuousClock.now
        let fleet = PresenceFleet()
        try await fleet.connect(count: wanted, url: url, concurrency: 128)
        let connectTime = ContinuousClock.now - start
        try await Task.sleep(for: .seconds(1))  // the server settles its allocations
        let loaded = BenchSupport.residentBytes(of: server.pid)
        report.record("clients_connected", fleet.count)
        report.record("connects_per_second", Double(fleet.count) / connectTime.inSeconds)
        let connected = String(
            format: "%d clients connected and present in %.2f s (%.0f/s)", fleet.count, connectTime.inSeconds,
            Double(fleet.count) / connectTime.inSeconds)
        if heapProfile == nil {
            let perConnection = Double(loaded - baseline) / Double(max(1, fleet.count))
            report.record("server_bytes_per_connection", perConnection)
            report.record(
                "server_bytes_per_connection_over_centrifugo_ratio", perConnection / Self.publishedBytesPerConnection)
            report.say(
                connected
                    + String(
                        format: "; server memory %.1f KB per connection (published: Centrifugo ~30 KB)",
                        perConnection / 1000))
        } else {
            report.say(connected + "; server memory not measured under heaptrack")
        }

        // Fan-out: changes written at `rate` a second, each carrying its send time.
        let latencies = try await directory.fanOut(url: url, rate: rate, seconds: seconds)
        let p50 = BenchSupport.percentile(latencies, 50) * 1_000
        let p99 = BenchSupport.percentile(latencies, 99) * 1_000
        report.record("fan_out_p50_us", p50)
        report.record("fan_out_p99_us", p99)
        report.say(
            String(
                format: "fan-out to a directory listener at %d changes/s: p50 %.0f µs, p99 %.0f µs (%d changes)", rate,
                p50, p99, latencies.count))

        // Mass disconnect: every client gone at once; done when the listener saw every entry go.
        // The server's own work is its CPU time meanwhile; the load generator's is the time its
        // closes take (on the same cores, inside the wall figure).
        let serverBefore = BenchSupport.cpuTime(of: server.pid)
        let kernelBefore = BenchSupport.kernelTime(of: server.pid)
        let dropStart = ContinuousClock.now
        directory.expectRemovals(fleet.count)
        await fleet.dropAll()
        let closesTime = ContinuousClock.now - dropStart
        let applied = await directory.waitForRemovals(timeout: .seconds(120))
        let dropTime = ContinuousClock.now - dropStart
        let serverWork = BenchSupport.cpuTime(of: server.pid).flatMap { after in
            serverBefore.map { after - $0 }
        }
        let kernelWork = BenchSupport.kernelTime(of: server.pid).flatMap { after in
            kernelBefore.map { after - $0 }
        }
        report.record("mass_disconnect_applied_ms", dropTime.inMilliseconds)
        report.record("mass_disconnect_load_generator_closes_ms", closesTime.inMilliseconds)
        if let serverWork { report.record("mass_disconnect_server_cpu_ms", serverWork.inMilliseconds) }
        // Of it, the kernel's: closing sockets, TCP's teardown, the epoll bookkeeping.
        if let kernelWork { report.record("mass_disconnect_server_kernel_cpu_ms", kernelWork.inMilliseconds) }
        report.record("mass_disconnect_complete", applied ? "yes" : "no")
        report.say(
            String(
                format:
                    "mass disconnect of %d clients applied (every entry gone, as the listener saw) in %.0f ms%@: the server's CPU time %@ (%@ of it in the kernel), the load generator's closes %.0f ms (target: < 500 ms of server work for 10,000)",
                fleet.count, dropTime.inMilliseconds, applied ? "" : ": NOT complete within 120 s",
                serverWork.map { String(format: "%.0f ms", $0.inMilliseconds) } ?? "unknown",
                kernelWork.map { String(format: "%.0f ms", $0.inMilliseconds) } ?? "unknown", closesTime.inMilliseconds)
        )
        await directory.close()
        stop(server)
        if let heapProfile {
            try await waitForExit(server)
            report.say("heap profile: \(heapProfile).zst (heaptrack_print -f \(heapProfile).zst -p 1 -n 20)")
        }
    }

    /// What marks the server under heaptrack in its environment: this benchmark's own.
    private var mark: String { "\(Self.heapMark)=\(getpid())" }

    /// Stops the server: under heaptrack, the server itself, not heaptrack's recorder, which
    /// finishes the file once the server is gone.
    private func stop(_ server: ChildProcess) {
        guard heapProfile != nil else { return server.signal(SIGTERM) }
        // The server alone: heaptrack's script, whose arguments name `serve` too, waits for its
        // compressor and exits once the profile is whole (told to stop, it would cut it short).
        let server = (try? BenchSupport.presencetop().path) ?? "presencetop"
        for (pid, command) in BenchSupport.processes(mentioning: mark) where command.hasPrefix(server + " serve ") {
            kill(pid, SIGTERM)
        }
    }

    /// Waits for the server under heaptrack to end (heaptrack writes the profile as it does), at
    /// most a minute: a server that ignored its SIGTERM is killed, and the run fails saying so
    /// instead of waiting for ever.
    private func waitForExit(_ server: ChildProcess) async throws {
        if await server.exitStatus(within: .seconds(60)) != nil { return }
        for pid in BenchSupport.processes(mentioning: mark).keys { kill(pid, SIGKILL) }
        server.signal(SIGKILL)
        throw ValidationError("the server under heaptrack had not stopped 60 s after its SIGTERM; it was killed")
    }

    /// Starts the server on a free port and waits until it says it listens; it and its port.
    private func startServer(_ report: BenchReport) async throws -> (ChildProcess, Int) {
        let binary = try BenchSupport.presencetop()
        var arguments = [
            "serve", "--memory", "--port", "0", "--log-level", "warning", "--heartbeat-timeout", "30",
            "--max-sessions-per-namespace", "\(max(20_000, clients + 100))",
        ]
        var executable = binary
        if let heapProfile {
            // heaptrack records every allocation of the server with its call stack. Its script
            // does not pass a SIGTERM on, so the server is found by a mark in its environment.
            executable = URL(fileURLWithPath: "/usr/bin/env")
            arguments = [mark, "heaptrack", "-o", heapProfile, binary.path] + arguments
        }
        let server = try await ChildProcess(executable, arguments)
        report.onExit("the server") { stop(server) }
        // A loaded machine starts it slowly, and heaptrack more slowly still.
        let wait: Duration = heapProfile == nil ? .seconds(30) : .seconds(120)
        guard let port = await server.listeningPort(within: wait) else {
            server.signal(SIGKILL)
            throw ValidationError(
                server.isRunning
                    ? "the server did not say it listened within \(wait)"
                    : "the server exited (status \(server.status ?? -1)) before it listened: \(server.standardError.suffix(500))"
            )
        }
        return (server, port)
    }
}
