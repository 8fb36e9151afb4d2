import Foundation
import RTDBTestSupport
import Testing

/// A child process that does not end in time fails its test with its threads' stacks (from gdb,
/// which CI installs), so that a hang seen once says where it stood.
@Suite struct HungChildTests {
    static let hasGDB = FileManager.default.isExecutableFile(atPath: "/usr/bin/gdb")

    @Test func aChildThatDoesNotEndIsNamedWithItsStacks() async throws {
        guard Self.hasGDB else {
            #expect(ProcessInfo.processInfo.environment["CI"] != "true", "CI installs gdb (.ci/run)")
            print("skipped: no gdb on this machine")
            return
        }
        let child = try await ChildProcess(URL(fileURLWithPath: "/bin/sleep"), ["30"])
        defer { child.signal(SIGKILL) }
        do {
            _ = try await child.waitForExit(seconds: 0.2)
            Issue.record("sleep 30 ended at once")
        } catch let failure as TestFailure {
            #expect(failure.description.contains("threads (gdb):"), "\(failure)")
            #expect(failure.description.contains("#0"), "a frame is named: \(failure)")
        }
    }
}
