import ArgumentParser
import Foundation
import Logging
import Presence
import PresenceLab
import RTDBCore
import RTDBRules
import RTDBServer
import RTDBWire

/// Acknowledged durable writes per second through `RTDBServer`, over 1 and N pipelined
/// WebSocket connections, beside the raw SQLite group-commit rate of the same machine.
struct ServerWriteBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "server-writes",
        abstract: "Pipelined sets over WebSocket: acknowledged durable writes per second."
    )

    @Option(help: "Writes per run.")
    var writes = 100_000

    @Option(help: "Connections in the multi-connection run.")
    var connections = 8

    @Option(help: "Rounds each server takes, in turns (the writes are shared among them).")
    var rounds = 6

    @Option(help: "Writes in flight per connection.")
    var window = 2_000

    @Flag(
        help: "Also print where one acknowledged write's server time goes, stage by stage (open rules, 1 connection).")
    var breakdown = false

    @Flag(
        help:
            "Also count the instructions that read one write's message as the server does (its data made nodes) under valgrind --tool=callgrind."
    )
    var callgrind = false

    @OptionGroup var options: BenchOptions

    func validate() throws {
        for (name, value) in [
            ("--writes", writes), ("--connections", connections), ("--rounds", rounds), ("--window", window),
        ]
        where value < 1 {
            throw ValidationError("\(name) must be at least 1, not \(value)")
        }
        if writes < connections * rounds {
            throw ValidationError(
                "--writes (\(writes)) must be at least --connections × --rounds (\(connections * rounds)): each connection writes in every round"
            )
        }
    }

    func run() async throws {
        try await BenchReport.run("server-writes", options: options) { try await measure($0) }
    }

    private func measure(_ report: BenchReport) async throws {
        let directory = try BenchSupport.makeScratchDirectory(for: report)
        let raw = try await rawSQLiteRate(directory: directory)
        report.record("raw_sqlite_rows_per_second", raw)
        report.say("raw SQLite group commit (batches of 1000 log rows, synchronous=FULL): \(Int(raw)) rows/s")
        report.say("(the server's per-connection limits are lifted: this measures the engine)")

        // The same presence-shaped writes (connection entries under each writer's own user) with
        // open rules and with the shipped presence rules: what evaluating rules costs. The two
        // servers take turns, round by round (which goes first alternates), so that the machine's
        // drift over the run falls on both sides of each round's ratio.
        var servers: [(name: String, server: EmbeddedServer)] = []
        for (name, rules) in [("open rules", SecurityRules.open), ("presence rules", PresenceRules.rules)] {
            let data = directory.appendingPathComponent(name.replacing(" ", with: "-"))
            let server = try await EmbeddedServer.start(dataDirectory: data) {
                $0.checkpointInterval = 1_000_000
                $0.rules = rules
                // What the engine can do: one connection's message limit (10,000/s) lifted.
                $0.limits = .unlimited
            }
            servers.append((name, server))
        }
        if breakdown, let open = servers.first {
            WriteBreakdown.measure(true)
            let seconds = try await timedWrites(to: open.server, connections: 1, user: "breakdown", count: writes)
            WriteBreakdown.measure(false)
            Self.reportBreakdown(report, wall: seconds)
        }
        if callgrind {
            try await Callgrind.report(
                report, key: "message_read_instructions",
                label: "a write's message read as the server reads it, its data made nodes", measured: 2_000,
                arguments: { ["--wire", "\($0)"] })
        }
        for connectionCount in [1, connections] {
            let perConnection = writes / connectionCount / rounds
            var seconds: [String: Double] = [:]
            var ratios: [Double] = []
            for round in 0..<rounds {
                var roundSeconds: [String: Double] = [:]
                for (name, server) in round % 2 == 0 ? servers : servers.reversed() {
                    let taken = try await timedWrites(
                        to: server, connections: connectionCount, user: "u\(connectionCount)_r\(round)",
                        count: perConnection)
                    roundSeconds[name] = taken
                    seconds[name, default: 0] += taken
                }
                if let open = roundSeconds["open rules"], let presence = roundSeconds["presence rules"] {
                    ratios.append(open / presence)
                }
            }
            let total = Double(perConnection * connectionCount * rounds)
            for (name, _) in servers {
                let rate = total / seconds[name, default: .infinity]
                let key = "\(name.replacing(" ", with: "_"))_\(connectionCount)_connections"
                report.record("\(key)_writes_per_second", rate)
                report.record("\(key)_over_raw_sqlite_ratio", rate / raw)
                report.say(
                    "\(name), \(connectionCount) connection(s): \(Int(total)) acked durable writes in "
                        + String(
                            format: "%.2f s = %.0f writes/s (%.2f× the raw SQLite rate)", seconds[name, default: 0],
                            rate, rate / raw))
            }
            // Presence over open: the median of the rounds' ratios, each from two runs side by side.
            let median = BenchSupport.percentile(ratios, 50)
            report.record("presence_rules_over_open_\(connectionCount)_connections_ratio", median)
            report.record("presence_rules_over_open_\(connectionCount)_connections_ratio_lowest", ratios.min() ?? 0)
            report.say(
                String(
                    format: "rules cost, %d connection(s): presence/open = %.2f (median of %d rounds; %.2f–%.2f)",
                    connectionCount, median, ratios.count, ratios.min() ?? 0, ratios.max() ?? 0))
        }
        for (_, server) in servers { await server.stop() }
    }

    /// Seconds to have `count` writes acknowledged on each of `connections` connections at once.
    private func timedWrites(to server: EmbeddedServer, connections: Int, user: String, count: Int) async throws
        -> Double
    {
        let url = "ws://127.0.0.1:\(server.port)/.ws?v=5&ns=bench"
        let start = ContinuousClock.now
        try await withThrowingTaskGroup(of: Void.self) { group in
            for connection in 0..<connections {
                group.addTask { try await pipelinedWrites(url: url, user: "\(user)_\(connection)", count: count) }
            }
            try await group.waitForAll()
        }
        return (ContinuousClock.now - start) / .seconds(1)
    }

    /// Prints and records where the server's time per acknowledged write went, by stage.
    private static func reportBreakdown(_ report: BenchReport, wall: Double) {
        let (writes, stages) = WriteBreakdown.totals()
        guard writes > 0 else { return }
        let wallPerWrite = wall * 1e6 / Double(writes)
        report.say(
            String(
                format: "breakdown, per acknowledged write (%d writes, %.2f µs of wall time each):", writes,
                wallPerWrite))
        var inline = 0.0
        for (stage, total) in stages {
            let micros = total / .microseconds(1) / Double(writes)
            // The commit overlaps the rest (group commit); encode is timed inside apply.
            if stage != .commit && stage != .encode { inline += micros }
            report.record("breakdown_\(stage)_us", micros)
            let name = stage == .apply ? "apply (with encode)" : "\(stage)"
            report.say(
                "  " + name.padding(toLength: 20, withPad: " ", startingAt: 0) + String(format: "%8.2f µs", micros))
        }
        report.record("breakdown_engine_inline_us", inline)
        report.record("breakdown_wall_us", wallPerWrite)
        report.say(
            String(
                format:
                    "  in line (all but commit, which overlaps them): %.2f µs of %.2f µs; the rest is the socket, NIO, tasks and the client",
                inline, wallPerWrite))
    }

    /// Sends `count` sets keeping `window` in flight; returns when all are acknowledged.
    ///
    /// Signed in as `user`, it writes connection entries (`device`, `connectedAt`) under its own
    /// presence, as the presence rules allow.
    private func pipelinedWrites(url: String, user: String, count: Int) async throws {
        try await WirePipeline.run(
            url: url, count: count, window: window,
            credential: AuthToken.emulatorToken(uid: user, lifetime: 1 << 40)
        ) { number in
            let entry: JSONValue = ["device": "bench", "connectedAt": .int(Int64(number))]
            return ClientRequest.put(path: Path("users/\(user)/connections/k\(number % 5_000)"), data: entry, hash: nil)
        }
    }

    private func rawSQLiteRate(directory: URL) async throws -> Double {
        let store = try SQLiteStore(path: directory.appendingPathComponent("raw.sqlite").path)
        let batches = max(1, writes / 1_000)
        let start = ContinuousClock.now
        var sequence: UInt64 = 0
        for _ in 0..<batches {
            var records: [LogRecord] = []
            records.reserveCapacity(1_000)
            for _ in 0..<1_000 {
                sequence += 1
                records.append(
                    LogRecord(
                        sequence: sequence, path: Path("raw/k\(sequence % 5_000)"), kind: .set, data: "\(sequence)"))
            }
            try await store.append(records, checkpoint: nil)
        }
        let seconds = (ContinuousClock.now - start) / .seconds(1)
        try await store.close()
        return Double(batches * 1_000) / seconds
    }
}
