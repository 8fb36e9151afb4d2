import Foundation
import RTDBTestSupport
import Testing

/// `presencetop demo` as a user runs it: a real process with an embedded server.
@Suite struct DemoProcessTests {
    @Test func theDemoRunsAndSettles() async throws {
        let demo = try await ChildProcess(
            ChildProcess.presencetop,
            [
                "demo", "--users", "2", "--devices", "2", "--seconds", "3", "--interval-ms", "300",
                "--heartbeat-timeout", "2",
            ])
        let status = try await demo.waitForExit(seconds: 120)
        let output = demo.standardOutput
        #expect(status == 0, "\(output)\n\(demo.standardError)")
        #expect(output.contains("presencetop demo: 2 users × 2 devices, links wifi"))
        #expect(output.contains("morgan/phone connected"))
        #expect(output.contains("▸ settling"))
        #expect(output.contains("settled: every signed-in device has exactly one connection entry"))
    }

    @Test func badDemoFlagsGetClearErrors() async throws {
        let cases: [([String], String)] = [
            (["demo", "--link", "moon"], "--link 'moon' is not a preset (perfect, lan, wifi, mobile, poor)"),
            (["demo", "--users", "0"], "--users must be between 1 and 500, not 0"),
            (
                ["demo", "--url", "ftp://x"],
                "--url 'ftp://x' is not a database URL (http://HOST:PORT?ns=NAME, https://<db>.firebaseio.com"
            ),
            (["demo", "--interval-ms", "1"], "--interval-ms must be at least 10, not 1"),
        ]
        for (arguments, message) in cases {
            let child = try await ChildProcess(ChildProcess.presencetop, arguments)
            #expect(try await child.waitForExit() != 0)
            #expect(child.standardError.contains(message), "\(arguments): \(child.standardError)")
        }
    }
}
