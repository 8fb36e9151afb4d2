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
            let p50 = BenchSupport.percentile(samples.toEvent, 50) * 1_000
            let p99 = BenchSupport.percentile(samples.toEvent, 99) * 1_000
            let callP50 = BenchSupport.percentile(samples.call, 50) * 1_000
            report.record("set_to_child_changed_p50_us", p50)
            report.record("set_to_child_changed_p99_us", p99)
            report.record("js_sdk_p50_over_ours_ratio", Self.javaScriptSDK.p50Microseconds / p50)
            report.record("set_call_p50_us", callP50)
            report.say(
                String(
                    format:
                        "offline setValue → child_changed, %d-child node with value + child_changed listeners, %d sets:",
                    children, samples.toEvent.count))
            report.say(String(format: "  p50 %.1f µs, p99 %.1f µs (target: p50 ≤ 10 µs)", p50, p99))
            report.say(
                String(
                    format:
                        "  of it, the call itself (the engine's work, the events handed to the callback queue): p50 %.1f µs",
                    callP50))
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
        let measured = 2_000
        guard
            let perSet = try await Callgrind.instructionsPerUnit(
                report, measured: measured, arguments: { ["\($0)", "\(children)"] })
        else { return }
        report.record("instructions_per_set", perSet)
        report.say(String(format: "  instructions per set (callgrind, %d sets less none): %.0f", measured, perSet))
    }
}
