import ArgumentParser
import ChildProcesses
import Foundation

/// Instruction counts of the probe's workloads under valgrind's callgrind: stable on a noisy
/// machine, where wall time is not (and from run to run, with Swift's hashing seeded alike).
enum Callgrind {
    /// Counts the probe's instructions per unit (``instructionsPerUnit(_:measured:prepare:arguments:)``),
    /// records them under `key` and says them after `label`; nothing without valgrind or the probe.
    static func report(
        _ report: BenchReport, key: String, label: String, measured: Int, arguments: (Int) -> [String]
    ) async throws {
        guard let perUnit = try await instructionsPerUnit(report, measured: measured, arguments: arguments) else {
            return
        }
        report.record(key, perUnit)
        report.say("\(label): " + String(format: "%.0f instructions (callgrind)", perUnit))
    }

    /// Instructions per unit of the probe's work, or nil (having said why) without valgrind or the probe.
    ///
    /// Two runs, one of `measured` units and one of none (`arguments` gives the probe's arguments
    /// for a count); the difference over `measured`. `prepare`, when given, gives the arguments of
    /// a run of the probe outside valgrind before each counted one (to set up its files).
    static func instructionsPerUnit(
        _ report: BenchReport, measured: Int, prepare: ((Int) -> [String])? = nil, arguments: (Int) -> [String]
    ) async throws -> Double? {
        guard
            let valgrind = ["/usr/bin/valgrind", "/usr/local/bin/valgrind"].first(
                where: FileManager.default.isExecutableFile)
        else {
            report.say("instructions: skipped (no valgrind)")
            report.record("instructions", "skipped: no valgrind")
            return nil
        }
        let folder = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent()
        let probe = folder.appendingPathComponent("presencetop-latency-probe").path
        guard FileManager.default.isExecutableFile(atPath: probe) else {
            report.say(
                "instructions: skipped (build the probe: swift build -c release --product presencetop-latency-probe)")
            report.record("instructions", "skipped: no presencetop-latency-probe beside this binary")
            return nil
        }
        let directory = try BenchSupport.makeScratchDirectory(for: report, "callgrind")
        // valgrind 3.19 gives up on the DWARF 5 Swift writes: a copy without it counts the same.
        let stripped = directory.appendingPathComponent("probe").path
        let objcopy = try await ChildProcess(
            URL(fileURLWithPath: "/usr/bin/env"), ["objcopy", "--strip-debug", probe, stripped])
        guard await objcopy.exitStatus(within: Self.bound) == 0 else {
            throw ValidationError("objcopy --strip-debug failed (binutils): \(objcopy.standardError)")
        }
        var totals: [Int: Int] = [:]
        for count in [0, measured] {
            if let prepare {
                let setup = try await ChildProcess(URL(fileURLWithPath: probe), prepare(count))
                let status = await setup.exitStatus(within: Self.bound)
                guard status == 0 else {
                    throw ValidationError(
                        "the probe's set-up \(prepare(count)) failed (exit \(status.map(String.init) ?? "none"))")
                }
            }
            let output = directory.appendingPathComponent("callgrind.\(count)").path
            // Swift seeds its hashing per process: dictionaries then lay out (and count)
            // differently run to run, up to 3 % of a write here. Seeded alike, two runs agree.
            let process = try await ChildProcess(
                URL(fileURLWithPath: valgrind),
                ["--tool=callgrind", "--callgrind-out-file=\(output)", stripped] + arguments(count),
                environment: ["SWIFT_DETERMINISTIC_HASHING": "1"])
            report.onExit("valgrind") { if process.isRunning { process.signal(SIGTERM) } }
            let status = await process.exitStatus(within: Self.bound)
            let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
            guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("summary:") }),
                let total = Int(line.split(separator: " ").last ?? "")
            else { throw ValidationError("callgrind wrote no summary (exit \(status.map(String.init) ?? "none"))") }
            totals[count] = total
        }
        return Double((totals[measured] ?? 0) - (totals[0] ?? 0)) / Double(measured)
    }

    /// How long a helper may run before it is taken for hung (a bound on a hang, not a timing).
    private static let bound: Duration = .seconds(1_800)
}
