import Foundation
import RTDBCore
import RTDBTestSupport
import Testing

/// A real process writing with persistence on, killed with SIGKILL at random points: every write
/// whose call had returned reaches the server, exactly once.
@Suite struct CrashTests {
    static let runs = 24

    @Test func everyReturnedWriteArrivesExactlyOnceAcrossKills() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try await TestServer.start()
        let url = "http://127.0.0.1:\(server.port)?ns=demo"
        let helper = ChildProcess.productsDirectory.appendingPathComponent("CrashWriter")
        var generator = SystemRandomNumberGenerator()
        var returned: [Int] = []
        for run in 0..<Self.runs {
            let writer = try await ChildProcess(helper, [url, directory.path, String(run * 1_000_000), "400"])
            // Kill at a random moment: during start-up, replay, or the write loop.
            try await Task.sleep(for: .milliseconds(Int.random(in: 30...500, using: &generator)))
            writer.signal(SIGKILL)
            _ = try await writer.waitForExit()
            let done = writer.standardOutput.split(separator: "\n").compactMap { line -> Int? in
                guard line.hasPrefix("done ") else { return nil }
                return Int(line.dropFirst(5))
            }
            returned += done
            #expect(writer.standardError.isEmpty, "run \(run): \(writer.standardError)")
        }
        let drainStarted = Date()
        let drain = try await ChildProcess(helper, [url, directory.path, "--drain"])
        #expect(
            try await eventually(attempts: 1_200) { drain.standardOutput.contains("drained") },
            "drain: \(drain.standardError.suffix(600))")
        drain.signal(SIGKILL)
        _ = try await drain.waitForExit()

        print(
            "crash test: \(returned.count) writes returned across \(Self.runs) SIGKILLs; drained in \(Int(Date().timeIntervalSince(drainStarted) * 1000)) ms"
        )
        let writes = try #require(try await http("GET", "/writes.json", port: server.port).json?.objectValue)
        let log = try #require(try await http("GET", "/log.json", port: server.port).json?.objectValue)
        let counter = try await http("GET", "/counter.json", port: server.port).json
        #expect(!returned.isEmpty, "the runs made progress")
        let missing = returned.filter {
            writes[CodeUnitString("w\($0)")] == nil || log[CodeUnitString("l\($0)")] == nil
        }
        #expect(missing.isEmpty, "returned but never arrived: \(missing.prefix(10))")
        // Each increment travels with its `writes` entry in one update: applied once each, the
        // counter equals the number of entries.
        #expect(counter == .int(Int64(writes.count)), "counter \(String(describing: counter)), \(writes.count) writes")
        await server.stop()
    }
}
