import Dispatch
import Foundation
import RTDBCore
import Synchronization
import UnixSignals

/// One benchmark run: lines for a person, figures for a machine, and what the run started.
///
/// Every benchmark runs through ``run(_:options:_:)``: the same machine description, the same
/// `--json` object, and the same clean-up of what it started (servers, tmux sessions, child
/// processes, scratch folders), at the end, on an error, or on Ctrl-C or SIGTERM.
final class BenchReport: Sendable {
    private struct State {
        var figures = JSONValue.Members()
        var cleanups: [(String, @Sendable () -> Void)] = []
    }

    /// The benchmark's name (`drain`, `latency`, …).
    let name: String
    /// Whether the run prints its JSON object instead of lines.
    let json: Bool
    private let state = Mutex(State())

    private init(name: String, json: Bool) {
        self.name = name
        self.json = json
    }

    /// Runs `body` as the benchmark `name`, then prints its JSON object with `--json`.
    ///
    /// What `body` registers with ``onExit(_:_:)`` runs when it ends, however it ends, and on
    /// SIGINT or SIGTERM before the process exits.
    static func run(
        _ name: String, options: BenchOptions, _ body: (BenchReport) async throws -> Void
    ) async throws {
        let report = BenchReport(name: name, json: options.json)
        let signals = await report.watchSignals()
        defer {
            signals.cancel()
            report.cleanUp()
        }
        report.say("\(name) on \(BenchMachine.current.description)")
        try await body(report)
        if options.json {
            var object: JSONValue.Members = ["benchmark": .string(name), "machine": BenchMachine.current.json]
            for (key, value) in report.state.withLock({ $0.figures }) { object[key] = value }
            print(JSONValue.object(object).jsonString)
        }
    }

    /// A line for a person (nothing with `--json`).
    func say(_ line: String) {
        guard !json else { return }
        print(line)
    }

    /// Records a figure under `key` (the unit or `ratio` in the key: `p50_us`, `writes_per_second`,
    /// `drain_over_server_ratio`).
    func record(_ key: String, _ value: Double) {
        let rounded = value.isFinite ? (value * 1_000).rounded() / 1_000 : 0
        state.withLock { $0.figures[CodeUnitString(key)] = .double(rounded) }
    }

    /// Records a whole-number figure under `key`.
    func record(_ key: String, _ value: Int) {
        state.withLock { $0.figures[CodeUnitString(key)] = .int(Int64(value)) }
    }

    /// Records a text figure under `key` (a verdict, a command).
    func record(_ key: String, _ value: String) {
        state.withLock { $0.figures[CodeUnitString(key)] = .string(value) }
    }

    /// Registers `cleanup` (what it undoes in `what`) to run when the run ends or is interrupted.
    func onExit(_ what: String, _ cleanup: @escaping @Sendable () -> Void) {
        state.withLock { $0.cleanups.append((what, cleanup)) }
    }

    /// Runs the registered clean-ups, newest first, once.
    private func cleanUp() {
        let cleanups = state.withLock { state in
            defer { state.cleanups = [] }
            return state.cleanups
        }
        for (_, cleanup) in cleanups.reversed() { cleanup() }
    }

    /// Cleans up and exits on SIGINT or SIGTERM, until the task it returns is cancelled.
    private func watchSignals() async -> Task<Void, Never> {
        let signals = await UnixSignalsSequence(trapping: .sigint, .sigterm)
        return Task { [self] in
            for await signal in signals {
                FileHandle.standardError.write(Data("\n\(name): interrupted; cleaning up\n".utf8))
                cleanUp()
                exit(128 + signal.rawValue)
            }
        }
    }
}
