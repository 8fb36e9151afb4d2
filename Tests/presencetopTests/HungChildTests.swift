import Foundation
import RTDBTestSupport
import Testing

/// A child process that does not end in time fails its test with its threads' stacks (from gdb,
/// which CI installs), so that a hang seen once says where it stood; where the machine forbids
/// tracing, the failure says so and names each thread's state from `/proc`.
@Suite struct HungChildTests {
    static let hasGDB = FileManager.default.isExecutableFile(atPath: "/usr/bin/gdb")

    @Test func aChildThatDoesNotEndIsNamedWithItsStacks() async throws {
        guard Self.hasGDB else {
            #expect(ProcessInfo.processInfo.environment["CI"] != "true", "CI installs gdb (.ci/run)")
            print("skipped: no gdb on this machine")
            return
        }
        // Far longer than gdb can take to start on a loaded machine (once over 30 s): it is killed
        // below.
        let child = try await ChildProcess(URL(fileURLWithPath: "/bin/sleep"), ["3600"])
        defer { child.signal(SIGKILL) }
        do {
            _ = try await child.waitForExit(seconds: 0.2)
            Issue.record("sleep 3600 ended at once")
        } catch let failure as TestFailure {
            let text = failure.description
            #expect(text.contains("threads (gdb):"), "\(failure)")
            if text.contains("ptrace: Operation not permitted") {
                // This machine forbids tracing: the reason is named, and the one thread from /proc.
                #expect(text.contains("threads (/proc):\n\(child.pid) \"sleep\" S"), "\(failure)")
            } else {
                #expect(text.contains("#0"), "a frame is named: \(failure)")
            }
        }
    }

    @Test func withoutTracingEachThreadIsNamedFromProc() async throws {
        let child = try await ChildProcess(URL(fileURLWithPath: "/bin/sleep"), ["3600"])
        defer { child.signal(SIGKILL) }
        let states = ChildProcess.threadStates(of: child.pid)
        #expect(states.hasPrefix("\(child.pid) \"sleep\" "), "\(states)")
        #expect(ChildProcess.threadStates(of: -1) == "(process -1 is gone)")
    }
}
