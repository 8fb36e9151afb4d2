import ArgumentParser
import Foundation

/// Instruction counts of the probe's workloads under valgrind's callgrind: stable on a noisy
/// machine, where wall time is not (and from run to run, with Swift's hashing seeded alike).
enum Callgrind {
    /// Counts the probe's instructions per unit (``instructionsPerUnit(_:measured:prepare:arguments:)``),
    /// records them under `key` and says them after `label`; nothing without valgrind or the probe.
    static func report(
        _ report: BenchReport, key: String, label: String, measured: Int, arguments: (Int) -> [String]
    ) throws {
        guard let perUnit = try instructionsPerUnit(report, measured: measured, arguments: arguments) else { return }
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
    ) throws -> Double? {
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
        let objcopy = Process()
        objcopy.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        objcopy.arguments = ["objcopy", "--strip-debug", probe, stripped]
        try objcopy.run()
        objcopy.waitUntilExit()
        guard objcopy.terminationStatus == 0 else { throw ValidationError("objcopy --strip-debug failed (binutils)") }
        var totals: [Int: Int] = [:]
        for count in [0, measured] {
            if let prepare {
                let setup = Process()
                setup.executableURL = URL(fileURLWithPath: probe)
                setup.arguments = prepare(count)
                setup.standardOutput = FileHandle.nullDevice
                try setup.run()
                setup.waitUntilExit()
                guard setup.terminationStatus == 0 else {
                    throw ValidationError(
                        "the probe's set-up \(prepare(count)) failed (exit \(setup.terminationStatus))")
                }
            }
            let output = directory.appendingPathComponent("callgrind.\(count)").path
            let process = Process()
            process.executableURL = URL(fileURLWithPath: valgrind)
            process.arguments = ["--tool=callgrind", "--callgrind-out-file=\(output)", stripped] + arguments(count)
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            // Swift seeds its hashing per process: dictionaries then lay out (and count)
            // differently run to run, up to 3 % of a write here. Seeded alike, two runs agree.
            var environment = ProcessInfo.processInfo.environment
            environment["SWIFT_DETERMINISTIC_HASHING"] = "1"
            process.environment = environment
            report.onExit("valgrind") { if process.isRunning { process.terminate() } }
            try process.run()
            process.waitUntilExit()
            let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
            guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("summary:") }),
                let total = Int(line.split(separator: " ").last ?? "")
            else { throw ValidationError("callgrind wrote no summary (exit \(process.terminationStatus))") }
            totals[count] = total
        }
        return Double((totals[measured] ?? 0) - (totals[0] ?? 0)) / Double(measured)
    }
}
