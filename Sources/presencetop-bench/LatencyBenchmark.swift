import ArgumentParser
import BenchWorkloads
import Dispatch
import Foundation

/// A local write to its listener event, offline: the Firebase JS SDK anchor's exact work.
struct LatencyBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "latency",
        abstract: "Offline setValue → child_changed on a 1,000-child node with a value listener too."
    )

    /// The published anchor: the Firebase JS SDK 9.8.1, offline, the same node and listeners,
    /// 20,000 sets (measured in an earlier sitting on this kind of machine; npm is not reachable).
    static let javaScriptSDK = (p50Microseconds: 552.0, p99Microseconds: 3_300.0)

    @Option(help: "Sets timed.")
    var sets = 20_000

    @Option(help: "Children of the node, each {n, s}.")
    var children = 1_000

    @Flag(help: "Also count instructions per set under valgrind --tool=callgrind (stable on a noisy machine).")
    var callgrind = false

    @OptionGroup var options: BenchOptions

    func run() async throws {
        try await BenchReport.run("latency", options: options) { report in
            let samples = LatencyWorkload.run(sets: sets, children: children)
            let p50 = BenchSupport.percentile(samples, 50) * 1_000
            let p99 = BenchSupport.percentile(samples, 99) * 1_000
            report.record("set_to_child_changed_p50_us", p50)
            report.record("set_to_child_changed_p99_us", p99)
            report.record("js_sdk_p50_over_ours_ratio", Self.javaScriptSDK.p50Microseconds / p50)
            report.say(
                String(
                    format:
                        "offline setValue → child_changed, %d-child node with value + child_changed listeners, %d sets:",
                    children, samples.count))
            report.say(String(format: "  p50 %.1f µs, p99 %.1f µs (target: p50 ≤ 40 µs)", p50, p99))
            report.say(
                String(
                    format: "  Firebase JS SDK 9.8.1, same work: p50 %.0f µs, p99 %.0f µs (%.1f× ours at p50)",
                    Self.javaScriptSDK.p50Microseconds, Self.javaScriptSDK.p99Microseconds,
                    Self.javaScriptSDK.p50Microseconds / p50))
            if callgrind { try await countInstructions(report) }
        }
    }

    /// Instructions per set, from two runs under callgrind (with and without the sets).
    ///
    /// The difference over the sets: instruction counts do not depend on what else the machine runs.
    private func countInstructions(_ report: BenchReport) async throws {
        guard
            let valgrind = ["/usr/bin/valgrind", "/usr/local/bin/valgrind"].first(
                where: FileManager.default.isExecutableFile)
        else {
            report.say("instructions: skipped (no valgrind)")
            report.record("instructions", "skipped: no valgrind")
            return
        }
        let folder = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent()
        let probe = folder.appendingPathComponent("presencetop-latency-probe").path
        guard FileManager.default.isExecutableFile(atPath: probe) else {
            report.say(
                "instructions: skipped (build the probe: swift build -c release --product presencetop-latency-probe)")
            report.record("instructions", "skipped: no presencetop-latency-probe beside this binary")
            return
        }
        let measured = 2_000
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
            let output = directory.appendingPathComponent("callgrind.\(count)").path
            let process = Process()
            process.executableURL = URL(fileURLWithPath: valgrind)
            process.arguments = [
                "--tool=callgrind", "--callgrind-out-file=\(output)", stripped, "\(count)", "\(children)",
            ]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            report.onExit("valgrind") { if process.isRunning { process.terminate() } }
            try process.run()
            process.waitUntilExit()
            let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
            guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("summary:") }),
                let total = Int(line.split(separator: " ").last ?? "")
            else { throw ValidationError("callgrind wrote no summary (exit \(process.terminationStatus))") }
            totals[count] = total
        }
        let perSet = Double((totals[measured] ?? 0) - (totals[0] ?? 0)) / Double(measured)
        report.record("instructions_per_set", perSet)
        report.say(String(format: "  instructions per set (callgrind, %d sets less none): %.0f", measured, perSet))
    }
}
