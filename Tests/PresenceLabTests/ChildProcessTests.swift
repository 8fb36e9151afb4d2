import ChildProcesses
import Foundation
import Testing

/// A child process's output and end are events its waits wake on, and a bound on a wait turns a
/// hang into an answer: what the chaos run's server, the benchmarks and the tests rely on.
@Suite struct ChildProcessTests {
    @Test func theListeningLineAndTheEndAreWaitedForAsTheyCome() async throws {
        let child = try await ChildProcess(
            URL(fileURLWithPath: "/bin/sh"), ["-c", "echo listening on http://127.0.0.1:4321; exec sleep 30"])
        #expect(await child.listeningPort() == 4321)
        #expect(child.isRunning)
        #expect(await child.exitStatus(within: .milliseconds(1)) == nil, "still running: the bound answers nil")
        child.signal(SIGKILL)
        #expect(await child.exitStatus(within: .seconds(60)) == SIGKILL)
        #expect(!child.isRunning)
    }

    @Test func aProcessThatEndsWithoutTheLineIsAnswered() async throws {
        let child = try await ChildProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", "echo cannot listen >&2; exit 3"])
        #expect(await child.listeningPort() == nil, "its end ends the wait")
        #expect(await child.exitStatus(within: .seconds(60)) == 3)
        #expect(child.standardError == "cannot listen\n")
    }

    /// Twenty children at once, each killed, each end seen.
    ///
    /// Was (Foundation's `Process`): a child spawned while another ended could inherit the socket
    /// that told of the end, and the end was never seen.
    @Test func childrenStartedTogetherEachHaveTheirEndSeen() async throws {
        let children = try await withThrowingTaskGroup(of: ChildProcess.self) { group in
            for _ in 0..<20 {
                group.addTask { try await ChildProcess(URL(fileURLWithPath: "/bin/sleep"), ["30"]) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        for child in children { child.signal(SIGKILL) }
        for child in children {
            #expect(await child.exitStatus(within: .seconds(60)) == SIGKILL, "pid \(child.pid)")
        }
    }
}
