import ArgumentParser
import Foundation
import PresenceLab
import RTDBCore

extension ChaosCommand {
    /// The variable that makes Swift's hashing the same in every process: without it,
    /// dictionaries iterate in an order of the process's own, and a run would not replay.
    static let deterministicHashing = "SWIFT_DETERMINISTIC_HASHING"

    /// `chaos --simulated`: the run on simulated time, its report and its trace's digest.
    func runSimulated() async throws {
        if ProcessInfo.processInfo.environment[Self.deterministicHashing] == nil { try Self.runAgainDeterministic() }
        // SQLite files on memory when the machine has it: a simulated run waits for no disk.
        let memory = URL(fileURLWithPath: "/dev/shm")
        let base =
            FileManager.default.isWritableFile(atPath: memory.path) ? memory : FileManager.default.temporaryDirectory
        let folder = base.appendingPathComponent("presencetop-chaos-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        var options = ChaosOptions(serverCommand: [], folder: folder)
        options.devices = devices
        options.duration = duration
        options.seed = seed ?? UInt64.random(in: 1...999_999_999)
        options.heartbeatTimeout = heartbeatTimeout
        options.faultKinds = faultKinds
        let quiet = json
        if !quiet { print("chaos: seed \(options.seed), simulated") }
        let outcome: SimulatedChaos.Outcome
        do {
            outcome = try await SimulatedChaos.run(options) { line in
                if !quiet { print(line) }
            }
        } catch let stuck as SimulatedChaos.Stuck {
            try write(stuck.trace)
            print("chaos: \(stuck) (replay with --seed \(options.seed))")
            throw ExitCode(1)
        }
        try write(outcome.trace)
        if json {
            var object = outcome.report.json.objectValue ?? [:]
            object["traceDigest"] = .string(outcome.digest)
            object["traceEvents"] = .int(Int64(outcome.trace.count))
            print(JSONValue.object(object).jsonString)
        } else {
            print(outcome.report.text)
            print("trace: \(outcome.trace.count) events, digest \(outcome.digest)")
        }
        if !outcome.report.passed { throw ExitCode(1) }
    }

    /// Writes the trace to the `--trace` file, if one was asked for.
    private func write(_ lines: [String]) throws {
        guard let trace else { return }
        do {
            try lines.map { $0 + "\n" }.joined().write(toFile: trace, atomically: true, encoding: .utf8)
        } catch {
            throw ValidationError("cannot write the trace to \(trace): \(error.localizedDescription)")
        }
    }

    /// Runs this command again with deterministic hashing (it can only be set before a process
    /// starts); returns only if that failed.
    static func runAgainDeterministic() throws {
        var environment = ProcessInfo.processInfo.environment
        environment[deterministicHashing] = "1"
        let arguments = CommandLine.arguments.map { strdup($0) } + [nil]
        let variables = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        execve("/proc/self/exe", arguments, variables)
        throw ValidationError("cannot run again with \(deterministicHashing)=1: errno \(errno)")
    }
}
