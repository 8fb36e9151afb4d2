import Foundation
import Testing

/// The deterministic tier's promise, checked on the sources: a file listed in
/// `Tests/deterministic-tier.txt` neither sleeps, polls, nor reaches past the process (no
/// socket, no child process, no wall clock), so its tests pass or fail the same way on an idle
/// machine and a loaded one (`scripts/deterministic-tier --runs N --hog` shows it).
@Suite struct DeterministicTierTests {
    /// What a file of the tier may not name, and why.
    static let forbidden: [(pattern: String, why: String)] = [
        ("Task.sleep", "a sleep"), ("eventually", "a poll"), ("wait(timeout", "a wait bounded by the wall clock"),
        ("ContinuousClock", "the machine's clock"), ("Date()", "the wall clock"), ("UnixTime.now()", "the wall clock"),
        ("TestServer", "a server on a socket"), ("ChildProcess", "a child process"),
        ("LinkProxy", "a proxy on a socket"),
        ("http(", "an HTTP request"), ("WebSocketTransport", "a WebSocket"), ("RawTCPClient", "a socket"),
        ("WireTestClient", "a socket"), ("Simulation.start", "a live simulation"), ("EmbeddedServer", "a server"),
        ("LiveDashboard.", "a live simulation"), ("Population(", "a population on sockets"), ("URLSession", "HTTP"),
        ("DispatchQueue.global", "threads of the system's"), ("Tmux", "a terminal"),
    ]

    /// The tier's files, as the list names them.
    static func tier() throws -> [String] {
        let list = DependencyRuleTests.root.appendingPathComponent("Tests/deterministic-tier.txt")
        return try String(contentsOf: list, encoding: .utf8).split(separator: "\n").map(String.init)
            .filter { !$0.hasPrefix("#") && !$0.isEmpty }
    }

    /// What in `text` breaks the tier's promise, one line each.
    static func breaches(in text: String) -> [String] {
        forbidden.filter { text.contains($0.pattern) }.map { "\($0.pattern) (\($0.why))" }
    }

    @Test func everyFileOfTheTierNeitherSleepsNorPollsNorLeavesTheProcess() throws {
        let files = try Self.tier()
        #expect(files.count >= 80, "the tier holds most of the behaviour tests: \(files.count) files")
        for file in files {
            let url = DependencyRuleTests.root.appendingPathComponent(file)
            guard let text = try? String(contentsOf: url, encoding: .utf8) else {
                Issue.record("\(file) is listed in the tier but cannot be read")
                continue
            }
            #expect(text.contains("@Test"), "\(file) holds no test")
            let found = Self.breaches(in: text)
            #expect(found.isEmpty, "\(file): \(found.joined(separator: ", "))")
        }
    }

    @Test func theCheckSeesASleepAndAServer() {
        #expect(Self.breaches(in: "try await Task.sleep(for: .seconds(1))") == ["Task.sleep (a sleep)"])
        #expect(Self.breaches(in: "let server = try await TestServer.start()") == ["TestServer (a server on a socket)"])
        #expect(Self.breaches(in: "await time.advance(by: .seconds(1))").isEmpty)
    }
}
