import Foundation
import RTDBTestSupport
import Testing

@testable import PresenceLab

/// The chaos run knows its server has ended from the kernel too, not only from Foundation's
/// `Process`, which can miss an exit (a child spawned at that moment inherits the socket it
/// watches): a killed child nobody has reaped yet counts as ended.
@Suite struct ChaosServerTests {
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/stat"), "needs Linux's /proc"))
    func aKilledChildIsEndedBeforeAnyoneReapsIt() async throws {
        var pid: pid_t = 0
        let arguments = ["/bin/sleep", "30"]
        let argv = arguments.map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        #expect(posix_spawn(&pid, "/bin/sleep", nil, nil, argv, environ) == 0)
        #expect(!ChaosServer.hasEnded(pid: pid), "a sleeping child runs")
        kill(pid, SIGKILL)
        // Nobody waits for it: it stays a zombie until reaped, which is what Foundation's missed
        // exit leaves behind.
        #expect(try await eventually { ChaosServer.hasEnded(pid: pid) }, "a killed, unreaped child has ended")
        var status: Int32 = 0
        #expect(waitpid(pid, &status, 0) == pid)
        #expect(ChaosServer.hasEnded(pid: pid), "a reaped child is gone")
    }
}
