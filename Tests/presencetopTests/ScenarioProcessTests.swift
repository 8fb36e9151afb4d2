import Foundation
import RTDBTestSupport
import Testing

/// `presencetop demo --scenario FILE` as a process: the verdict is its exit status.
@Suite struct ScenarioProcessTests {
    static let scenarios = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("scenarios")

    static func write(_ text: String) throws -> URL {
        let file = temporaryDirectory().appendingPathComponent("scenario.toml")
        try text.write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    @Test func theDocumentedPresenceFlowPasses() async throws {
        let file = Self.scenarios.appendingPathComponent("presence-flow.toml").path
        let demo = try await ChildProcess(ChildProcess.presencetop, ["demo", "--scenario", file])
        let status = try await demo.waitForExit(seconds: 120)
        #expect(status == 0, "\(demo.standardOutput)\n\(demo.standardError)")
        #expect(demo.standardOutput.contains("▸ 4.0 s alex/phone network offline"))
        #expect(demo.standardOutput.contains("✓ expectation 3 (line 33) alex offline within 5.0 s: held after"))
        #expect(demo.standardOutput.contains("scenario \"presence flow\": PASS, 5 of 5 expectations held"))
    }

    @Test func anExpectationThatNeverHoldsFailsTheRunWithWhatStoodInItsWay() async throws {
        // morgan is this device's user: while it is connected, morgan is never offline. The
        // window opens at 4 s, once this device has written its entry: before that, morgan is
        // truly offline on the server (a loaded machine once took over a second to get there).
        let file = try Self.write(
            """
            name = "impossible"
            [population]
            users = 1
            devices = 1
            [[expect]]
            user_offline = "morgan"
            within = 2
            after = 4
            """)
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let demo = try await ChildProcess(ChildProcess.presencetop, ["demo", "--scenario", file.path])
        let status = try await demo.waitForExit(seconds: 120)
        #expect(status == 1, "\(demo.standardOutput)\n\(demo.standardError)")
        #expect(
            demo.standardOutput.contains(
                "✗ expectation 1 (line 5) morgan offline within 2.0 s: failed, morgan still shows"))
        #expect(demo.standardOutput.contains("FAIL, 0 of 1 expectations held"))
    }

    @Test func aMalformedFileIsNamedWithItsLineAndNothingRuns() async throws {
        let file = try Self.write("name = \"x\"\n[[step]]\nat = 1\ndevice = \"this\"\nnetwork = \"sideways\"\n")
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let demo = try await ChildProcess(ChildProcess.presencetop, ["demo", "--scenario", file.path])
        let status = try await demo.waitForExit(seconds: 60)
        #expect(status == 2)
        #expect(
            demo.standardError.contains(
                "presencetop: \(file.path):5: 'network' must be \"up\", \"offline\" or \"blackhole\""),
            "\(demo.standardError)")
        #expect(demo.standardOutput.isEmpty)
    }
}
