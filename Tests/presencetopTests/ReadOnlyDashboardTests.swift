import Foundation
import RTDBTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The dashboard on a database that is not on this machine: it watches and writes nothing.
///
/// The server listens on every address and the dashboard reaches it through this machine's
/// non-loopback address, as it would reach someone's real database.
@Suite(.serialized) struct ReadOnlyDashboardTests {
    /// This machine's first IPv4 address that is not loopback, if it has one.
    static var outwardAddress: String? {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return nil }
        defer { freeifaddrs(list) }
        for entry in sequence(first: first, next: { $0.pointee.ifa_next }) {
            guard let address = entry.pointee.ifa_addr, address.pointee.sa_family == sa_family_t(AF_INET) else {
                continue
            }
            var text = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
            let found = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { inet in
                var raw = inet.pointee.sin_addr
                return inet_ntop(AF_INET, &raw, &text, socklen_t(INET_ADDRSTRLEN)) != nil
            }
            let string = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if found, !string.hasPrefix("127.") { return string }
        }
        return nil
    }

    @Test(.enabled(if: DashboardTmuxTests.enabled, "needs tmux (installed by .ci/run; required when CI=true)"))
    func aDatabaseNotOnThisMachineIsWatchedAndNothingIsWritten() async throws {
        let address = try #require(Self.outwardAddress, "this machine has no address but loopback")
        let (server, port) = try await ChildProcess.serve(["--memory", "--host", "0.0.0.0"])
        defer { server.signal(SIGTERM) }
        // Someone's presence, written by their own app. A namespace of its own: the crash test's
        // writer processes write `counter`, `last`, `log` and `writes` to `demo` on a loopback
        // server, and once (CI, b805272) those were what this test found at the end.
        _ = try await http(
            "PUT", "/users/alice.json?ns=someones-app", port: port,
            body: #"{"connections": {"-Nphone": true}, "lastOnline": 1764000000000}"#)

        let (command, home) = try DashboardTmuxTests.command("--url 'http://\(address):\(port)?ns=someones-app'")
        defer { try? FileManager.default.removeItem(at: home) }
        let tmux = try await TmuxSession(command: command, width: 160, height: 40)
        defer { tmux.close() }
        var (ok, screen) = try await tmux.waitFor {
            $0.contains("read-only") && $0.contains("watching") && $0.contains("alice")
        }
        #expect(ok, "the header says read-only, and alice's presence shows:\n\(screen)")
        #expect(screen.contains("database \(address):\(port) ns=someones-app"), "\(screen)")

        for key in ["w", "W", "t", "r", "a"] {
            // Pressed again if the explanation was not seen: it stays 6 s, and a loaded run can
            // hold this test's polling longer than that (seen once in CI). Each press explains.
            ok = false
            for _ in 0..<3 where !ok {
                try await tmux.send(key)
                (ok, screen) = try await tmux.waitFor(seconds: 10) { $0.contains("read-only: nothing is written to") }
            }
            #expect(ok, "\(key) explains why it is off:\n\(screen)")
        }
        let (quit, _) = try await tmux.quit()
        #expect(quit)
        let stored = try await http("GET", "/.json?ns=someones-app", port: port).json
        #expect(
            stored?.objectValue?.keys.map(\.string) == ["users"],
            "nothing but alice's own: \(String(describing: stored))")
        #expect(stored?["users"]?.objectValue?.keys.map(\.string) == ["alice"])
    }
}
