import Foundation
import RTDBCore
import RTDBRules
import RTDBTestSupport
import Testing

/// A real process writing with persistence on, killed with SIGKILL at random points (start-up,
/// replay of the queue it left, the middle of its write loop) and restarted on the same files:
/// every write whose call had returned reaches the server exactly once, in the order it was made.
///
/// `PRESENCETOP_CRASH_KILLS` and `PRESENCETOP_CRASH_VALUES` set the run's size: at least that many
/// kills, and writes that returned (CI: 50 and 10,000); `PRESENCETOP_CRASH_SEED` replays a run's
/// kill points.
@Suite struct CrashTests {
    static let environment = ProcessInfo.processInfo.environment
    static let kills = environment["PRESENCETOP_CRASH_KILLS"].flatMap(Int.init) ?? 50
    static let values = environment["PRESENCETOP_CRASH_VALUES"].flatMap(Int.init) ?? 10_000
    static let seed = environment["PRESENCETOP_CRASH_SEED"].flatMap(UInt64.init) ?? UInt64.random(in: 1...999_999)

    /// `last` may only grow: a write that reaches the server out of order is refused.
    static let rules = """
        { "rules": { ".read": true, ".write": true,
          "last": { ".validate": "!data.exists() || newData.val() > data.val()" } } }
        """

    @Test func everyReturnedWriteArrivesOnceAndInOrderAcrossKills() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let rules = try SecurityRules(text: Self.rules)
        let server = try await TestServer.start(configure: { $0.rules = rules })
        let url = "http://127.0.0.1:\(server.port)?ns=demo"
        let helper = ChildProcess.productsDirectory.appendingPathComponent("CrashWriter")
        var random = SeededRandom(seed: Self.seed)
        print("crash test: seed \(Self.seed) (PRESENCETOP_CRASH_SEED replays its kill points)")
        let perRun = max(1, Self.values / Self.kills)
        var returned: [Int] = []
        var points: [String: Int] = [:]
        let started = Date()
        // Runs go on until both the kills and the returned writes reach their counts.
        var run = 0
        while run < Self.kills || returned.count < Self.values {
            defer { run += 1 }
            let first = run * perRun
            let writer = try await ChildProcess(helper, [url, directory.path, String(first), String(perRun)])
            // A fifth of the kills land in start-up and the replay of what earlier runs queued
            // (as soon as it says it started, or that it opens its store; the kill lands wherever
            // it has got to by then); the rest after a random number of returned writes, in the
            // middle of the loop.
            let point: String
            if Int.random(in: 0..<5, using: &random) == 0 {
                let said = Bool.random(using: &random) ? "started" : "opening"
                _ = await writer.waitForOutput(containing: said)
                point = "start-up"
            } else {
                let target = Int.random(in: 1...perRun, using: &random)
                _ = await writer.waitForOutput {
                    Self.done(in: $0.standardOutput).count >= target
                }
                point = "loop"
            }
            points[point, default: 0] += 1
            writer.signal(SIGKILL)
            _ = try await writer.waitForExit()
            returned += Self.done(in: writer.standardOutput)
            #expect(writer.standardError.isEmpty, "run \(run): \(writer.standardError)")
        }
        let drainStarted = Date()
        let drain = try await ChildProcess(helper, [url, directory.path, "--drain"])
        #expect(
            try await eventually(attempts: 2_400) { drain.standardOutput.contains("drained") },
            "drain: \(drain.standardError.suffix(600))")
        drain.signal(SIGKILL)
        _ = try await drain.waitForExit()
        print(
            "crash test: \(returned.count) writes returned across \(run) SIGKILLs (\(points)) in \(Int(drainStarted.timeIntervalSince(started))) s; drained in \(Int(Date().timeIntervalSince(drainStarted) * 1000)) ms"
        )

        let writes = try #require(try await http("GET", "/writes.json", port: server.port).json?.objectValue)
        let log = try #require(try await http("GET", "/log.json", port: server.port).json?.objectValue)
        let counter = try await http("GET", "/counter.json", port: server.port).json
        let last = try await http("GET", "/last.json", port: server.port).json
        #expect(returned.count >= Self.kills, "the runs made progress")
        let missing = returned.filter {
            writes[CodeUnitString("w\($0)")] == nil || log[CodeUnitString("l\($0)")] == nil
        }
        #expect(missing.isEmpty, "returned but never arrived (or arrived out of order): \(missing.prefix(10))")
        // Each increment travels with its `writes` entry in one update: applied once each, the
        // counter equals the number of entries.
        #expect(counter == .int(Int64(writes.count)), "counter \(String(describing: counter)), \(writes.count) writes")
        let highest = writes.values.compactMap(\.intValue).max()
        #expect(last?.intValue == highest, "the last write to arrive is the last one made")
        await server.stop()
    }

    static func done(in output: String) -> [Int] {
        output.split(separator: "\n").compactMap { line in
            line.hasPrefix("done ") ? Int(line.dropFirst(5)) : nil
        }
    }
}
