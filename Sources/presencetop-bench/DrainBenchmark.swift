import ArgumentParser
import Foundation
import PresenceLab
import RTDBClient
import RTDBCore
import RTDBWire
import Synchronization

/// A queue of writes made offline, drained when the app starts again with the server back,
/// beside the server's own rate for the same writes in the same run.
struct DrainBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "drain",
        abstract: "Writes queued offline → all acknowledged after a restart, beside the server's own rate."
    )

    /// The published anchor: the Firebase JS SDK 9.8.1 draining the same queue against this
    /// server (measured in an earlier sitting on this kind of machine; npm is not reachable here).
    static let javaScriptSDKWritesPerSecond = 2_550.0

    @Option(help: "Writes queued offline.")
    var writes = 10_000

    @Option(help: "Writes in flight in the server's own run.")
    var window = 2_000

    @Option(help: "Runs of each (the median is reported).")
    var rounds = 3

    @Flag(help: "Print the engine's start-up phases (file, queue, replay).")
    var phases = false

    @Flag(
        help:
            "Also count the client engine's instructions a drained write under valgrind --tool=callgrind (a peer in its process acknowledges)."
    )
    var callgrind = false

    @OptionGroup var options: BenchOptions

    func run() async throws {
        try await BenchReport.run("drain", options: options) { try await measure($0) }
    }

    private func measure(_ report: BenchReport) async throws {
        let directory = try BenchSupport.makeScratchDirectory(for: report, "drain")
        // The engine's rate: one connection's message limit (10,000/s) lifted.
        let server = try await EmbeddedServer.start(dataDirectory: directory.appendingPathComponent("server")) {
            $0.limits = .unlimited
        }
        let url = "http://127.0.0.1:\(server.port)?ns=bench"
        var serverRates: [Double] = []
        // The same with the idempotency keys the queue's writes carry.
        var keyedRates: [Double] = []
        var drainRates: [Double] = []
        var measured: [(start: Duration, acknowledgements: Duration)] = []
        // The process's CPU time per write in each run (the server, the client, the raw client
        // all run here): steadier than the rates on a shared machine.
        var serverCPU: [Double] = []
        var keyedCPU: [Double] = []
        var drainCPU: [Double] = []
        for round in 0..<rounds {
            for keyed in [false, true] {
                let before = BenchSupport.cpuTime(of: getpid())
                let rate = try await serverRate(port: server.port, round: round, keyed: keyed)
                let cpu = before.flatMap { before in
                    BenchSupport.cpuTime(of: getpid()).map { ($0 - before).inMilliseconds * 1_000 / Double(writes) }
                }
                if keyed {
                    keyedRates.append(rate)
                    if let cpu { keyedCPU.append(cpu) }
                } else {
                    serverRates.append(rate)
                    if let cpu { serverCPU.append(cpu) }
                }
            }
            let drain = try await drainRate(url: url, directory: directory.appendingPathComponent("c\(round)"))
            drainRates.append(drain.rate)
            measured.append((drain.start, drain.acknowledgements))
            if let cpu = drain.cpu { drainCPU.append(cpu.inMilliseconds * 1_000 / Double(writes)) }
        }
        await server.stop()
        if callgrind {
            try await countInstructions(report, directory: directory.appendingPathComponent("callgrind-queues"))
        }
        let serverRate = BenchSupport.percentile(serverRates, 50)
        let drainRate = BenchSupport.percentile(drainRates, 50)
        report.record("server_writes_per_second", serverRate)
        report.record("drain_writes_per_second", drainRate)
        report.record("drain_over_server_ratio", drainRate / serverRate)
        let keyedRate = BenchSupport.percentile(keyedRates, 50)
        report.record("server_keyed_writes_per_second", keyedRate)
        report.record("drain_over_keyed_server_ratio", drainRate / keyedRate)
        report.record("drain_over_js_sdk_ratio", drainRate / Self.javaScriptSDKWritesPerSecond)
        let startMs = BenchSupport.percentile(measured.map { $0.start.inMilliseconds }, 50)
        let ackMs = BenchSupport.percentile(measured.map { $0.acknowledgements.inMilliseconds }, 50)
        report.record("drain_start_to_first_ack_ms", startMs)
        report.record("drain_first_to_last_ack_ms", ackMs)
        let serverMicroseconds = BenchSupport.percentile(serverCPU, 50)
        let keyedMicroseconds = BenchSupport.percentile(keyedCPU, 50)
        let drainMicroseconds = BenchSupport.percentile(drainCPU, 50)
        if !serverCPU.isEmpty, !keyedCPU.isEmpty, !drainCPU.isEmpty {
            report.record("server_run_cpu_us_per_write", serverMicroseconds)
            report.record("server_keyed_run_cpu_us_per_write", keyedMicroseconds)
            report.record("drain_cpu_us_per_write", drainMicroseconds)
            report.record("server_run_over_drain_cpu_ratio", serverMicroseconds / drainMicroseconds)
        }
        report.say(
            String(
                format: "server's own rate (one raw connection, %d in flight): %.0f writes/s", window, serverRate))
        report.say(
            String(
                format: "  the same writes with the idempotency keys the queue's writes carry: %.0f writes/s", keyedRate
            ))
        report.say(
            String(
                format: "drain of %d writes queued offline, from the start to the last acknowledgement: %.0f writes/s",
                writes, drainRate))
        report.say(
            String(
                format:
                    "  %.2f× the server's rate (target ≥ 0.8), %.2f× its rate with keys; %.1f× the JS SDK's %.0f writes/s (target ≥ 10)",
                drainRate / serverRate, drainRate / keyedRate, drainRate / Self.javaScriptSDKWritesPerSecond,
                Self.javaScriptSDKWritesPerSecond))
        report.say(
            String(format: "  start to the first acknowledgement %.0f ms; from it to the last %.0f ms", startMs, ackMs))
        if !serverCPU.isEmpty, !keyedCPU.isEmpty, !drainCPU.isEmpty {
            report.say(
                String(
                    format:
                        "  CPU time of this process per write (server and client both run here): the server's own run %.1f µs (with keys %.1f µs), the drain %.1f µs",
                    serverMicroseconds, keyedMicroseconds, drainMicroseconds))
        }
    }

    /// The client engine's instructions a drained write: two restarts under callgrind, one with
    /// `writes` queued and one with none, each drained to a peer in the probe that acknowledges
    /// every request (so nothing of a server's work is counted).
    private func countInstructions(_ report: BenchReport, directory: URL) async throws {
        let queue = { (count: Int) in directory.appendingPathComponent("q\(count)").path }
        guard
            let perWrite = try await Callgrind.instructionsPerUnit(
                report, measured: writes, prepare: { ["--drain-prepare", "\($0)", queue($0)] },
                arguments: { ["--drain", queue($0)] })
        else { return }
        report.record("client_instructions_per_drained_write", perWrite)
        report.say(
            String(
                format: "  the client engine's instructions a drained write (callgrind, %d writes less none): %.0f",
                writes,
                perWrite))
    }

    /// The same sets the queue holds, sent by a raw client that keeps `window` in flight; `keyed`,
    /// each with an idempotency key as the queue's writes carry one (the server stores it with the write).
    private func serverRate(port: Int, round: Int, keyed: Bool) async throws -> Double {
        let start = ContinuousClock.now
        let prefix = keyed ? "server-keyed\(round)" : "server\(round)"
        let instance = UUID().uuidString
        try await WirePipeline.run(url: "ws://127.0.0.1:\(port)/.ws?v=5&ns=bench", count: writes, window: window) {
            ClientRequest.put(
                path: Path("\(prefix)/q\($0)"), data: ["n": .int(Int64($0))], hash: nil,
                idempotencyKey: keyed ? "\(instance):\($0)" : nil)
        }
        return Double(writes) / (ContinuousClock.now - start).inSeconds
    }

    /// Queues the writes offline in one run of the app, then times the next run from its start
    /// to the last acknowledgement.
    ///
    /// Also returns the time to the first acknowledgement (the start and the replay) and from it
    /// to the last.
    private func drainRate(
        url: String, directory: URL
    ) async throws -> (rate: Double, start: Duration, acknowledgements: Duration, cpu: Duration?) {
        let offline = open(url, directory)
        offline.goOffline()
        let queue = offline.reference(withPath: "drain/\(directory.lastPathComponent)")
        for index in 0..<writes { queue.child("q\(index)").setValue(["n": index], andPriority: nil) }
        offline.close()
        let cpuBefore = BenchSupport.cpuTime(of: getpid())
        let start = ContinuousClock.now
        if phases {
            print(String(format: "drain window opens at %.6f (CLOCK_MONOTONIC, for perf --time)", monotonicSeconds()))
        }
        let database = open(url, directory)
        // When the first acknowledgement arrived: before it, the start and the replay.
        let firstAck = Mutex<ContinuousClock.Instant?>(nil)
        let total = writes
        database.observePendingWrites { queue in
            if queue.count < total { firstAck.withLock { $0 = $0 ?? ContinuousClock.now } }
        }
        await database.waitForPendingWrites()
        let elapsed = ContinuousClock.now - start
        if phases { print(String(format: "drain window closes at %.6f", monotonicSeconds())) }
        let cpuAfter = BenchSupport.cpuTime(of: getpid())
        let toFirst = firstAck.withLock { $0 }.map { $0 - start } ?? elapsed
        let left = database.pendingWrites.count
        database.close()
        guard left == 0 else { throw ValidationError("\(left) writes were still queued after the drain") }
        let cpu = cpuBefore.flatMap { before in cpuAfter.map { $0 - before } }
        return (Double(writes) / elapsed.inSeconds, toFirst, elapsed - toFirst, cpu)
    }

    private func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    private func open(_ url: String, _ directory: URL) -> Database {
        BenchSupport.persistentDatabase(url: url, directory: directory, phases: phases)
    }
}
