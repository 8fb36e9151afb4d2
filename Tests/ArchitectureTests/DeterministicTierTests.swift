import Foundation
import Testing

/// The deterministic tier's promise, checked on the sources: a file listed in
/// `Tests/deterministic-tier.txt` neither sleeps, polls, nor reaches past the process (no
/// socket, no child process, no wall clock), so its tests pass or fail the same way on an idle
/// machine and a loaded one (`scripts/deterministic-tier --runs N --hog` shows it).
@Suite struct DeterministicTierTests {
    /// What a file of the tier may not name, and why (`Tests/deterministic-tier-forbids.txt`).
    static func forbidden() throws -> [(pattern: String, why: String)] {
        try lines(of: "Tests/deterministic-tier-forbids.txt").compactMap { line in
            let parts = line.split(separator: "\t", maxSplits: 1).map(String.init)
            return parts.count == 2 ? (parts[0], parts[1]) : nil
        }
    }

    /// The lines of a list under the package, without comments and blank lines.
    static func lines(of file: String) throws -> [String] {
        try String(contentsOf: DependencyRuleTests.root.appendingPathComponent(file), encoding: .utf8)
            .split(separator: "\n").map(String.init).filter { !$0.hasPrefix("#") && !$0.isEmpty }
    }

    /// The tier's files, as the list names them.
    static func tier() throws -> [String] { try lines(of: "Tests/deterministic-tier.txt") }

    /// What in `text` breaks the tier's promise, one line each.
    static func breaches(in text: String, of forbidden: [(pattern: String, why: String)]) -> [String] {
        forbidden.filter { text.contains($0.pattern) }.map { "\($0.pattern) (\($0.why))" }
    }

    @Test func everyFileOfTheTierNeitherSleepsNorPollsNorLeavesTheProcess() throws {
        let files = try Self.tier()
        let forbidden = try Self.forbidden()
        #expect(forbidden.count >= 15, "the forbidden patterns were read: \(forbidden.count)")
        #expect(files.count >= 80, "the tier holds most of the behaviour tests: \(files.count) files")
        for file in files {
            let url = DependencyRuleTests.root.appendingPathComponent(file)
            guard let text = try? String(contentsOf: url, encoding: .utf8) else {
                Issue.record("\(file) is listed in the tier but cannot be read")
                continue
            }
            #expect(text.contains("@Test"), "\(file) holds no test")
            let found = Self.breaches(in: text, of: forbidden)
            #expect(found.isEmpty, "\(file): \(found.joined(separator: ", "))")
        }
    }

    @Test func theCheckSeesEachForbiddenPatternAndNotMovedTime() throws {
        let forbidden = try Self.forbidden()
        for (pattern, why) in forbidden {
            #expect(Self.breaches(in: "let x = \(pattern)", of: forbidden).contains("\(pattern) (\(why))"))
        }
        #expect(Self.breaches(in: "await time.advance(by: .seconds(1))", of: forbidden).isEmpty)
    }
}
