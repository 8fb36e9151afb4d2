import Foundation
import RTDBCore
import RTDBTestSupport
import Testing

/// `presencetop chaos --simulated` replays a seed exactly: the same trace and the same report,
/// byte for byte, once on an idle machine and once beside a process keeping both cores busy.
///
/// Each run is a child process of its own (deterministic hashing is set before a process
/// starts); the busy run's seed, trace and report are compared with the idle one's.
@Suite(.serialized) struct SimulatedChaosTests {
    static let arguments = ["chaos", "--simulated", "--devices", "12", "--duration", "20"]

    /// Runs a seed, and returns its standard output and trace.
    static func run(seed: UInt64, in folder: URL, named name: String) async throws -> (output: String, trace: String) {
        let trace = folder.appendingPathComponent("\(name).trace")
        let chaos = try await ChildProcess(
            ChildProcess.presencetop, arguments + ["--seed", String(seed), "--trace", trace.path])
        let status = try await chaos.waitForExit(seconds: 600)
        #expect(status == 0, "seed \(seed): \(chaos.standardOutput.suffix(2_000)) \(chaos.standardError.suffix(2_000))")
        return (chaos.standardOutput, try String(contentsOf: trace, encoding: .utf8))
    }

    @Test(arguments: [7, 941_272_823, 424_242] as [UInt64])
    func theSameSeedGivesTheSameRunUnderLoad(seed: UInt64) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("simulated-chaos-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let idle = try await Self.run(seed: seed, in: folder, named: "idle")
        var hogs: [ChildProcess] = []
        for _ in 0..<2 {
            hogs.append(try await ChildProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", "while :; do :; done"]))
        }
        let busy = try await Self.run(seed: seed, in: folder, named: "busy")
        for hog in hogs {
            hog.signal(SIGKILL)
            _ = try await hog.waitForExit()
        }
        let digest = idle.output.split(separator: "\n").last { $0.hasPrefix("trace: ") }
        #expect(digest != nil, "a simulated run prints its trace's digest last")
        #expect(idle.trace.split(separator: "\n").count > 100, "the trace tells the run")
        #expect(busy.output == idle.output, "seed \(seed): the report and digest differ under load")
        #expect(busy.trace == idle.trace, "seed \(seed): the trace differs under load")
    }

    /// Each fault kind alone, on simulated time: presence shows the truth and every accepted
    /// write is on the server once (the loopback run's checks), for a seed that strikes it.
    @Test(arguments: [
        "offline", "blackhole", "latency", "bandwidth", "crash", "clock jump", "credential expiry", "server kill",
        "disk",
    ])
    func eachFaultKindAloneKeepsTheTruth(kind: String) async throws {
        let (status, report, problems) = try await ChaosRunTests.run(
            ["chaos", "--simulated", "--devices", "16", "--duration", "20", "--seed", "2", "--faults", kind, "--json"])
        #expect(status == 0 && problems.isEmpty, "\(kind): \(problems.prefix(5))")
        let kinds = Set(report["faults"]?.arrayValue?.compactMap { $0["kind"]?.stringValue } ?? [])
        #expect(kinds == [kind], "the run struck with \(kind) only, and at least once: \(kinds)")
        #expect(report["traceDigest"]?.stringValue?.count == 64)
    }

    @Test func aTraceNeedsASimulatedRun() async throws {
        let chaos = try await ChildProcess(ChildProcess.presencetop, ["chaos", "--trace", "/tmp/x"])
        #expect(try await chaos.waitForExit() != 0)
        #expect(chaos.standardError.contains("--trace needs --simulated"))
    }

    @Test func aTraceThatCannotBeWrittenIsAnErrorNamingIt() async throws {
        let path = "/nonexistent-\(UUID())/trace.txt"
        let chaos = try await ChildProcess(
            ChildProcess.presencetop, Self.arguments + ["--devices", "3", "--duration", "5", "--trace", path])
        #expect(try await chaos.waitForExit(seconds: 600) != 0)
        #expect(chaos.standardError.contains("cannot write the trace to \(path)"), "\(chaos.standardError)")
    }
}
