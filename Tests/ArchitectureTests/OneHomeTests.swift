import Foundation
import Testing

/// Rules that have one home in the sources, checked by reading them.
@Suite struct OneHomeTests {
    /// A child process is started and waited on through `ChildProcess` (or swift-subprocess, which
    /// it runs on), never Foundation's `Process`: its exit is learned from a socket another
    /// child spawned at the same moment can inherit, and then never seen.
    @Test func noSourceWaitsForAChildProcessItsOwnWay() throws {
        let folder = DependencyRuleTests.root.appendingPathComponent("Sources")
        let walker = try #require(FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil))
        var read = 0
        for case let file as URL in walker where file.pathExtension == "swift" {
            read += 1
            let lines = try String(contentsOf: file, encoding: .utf8).split(
                separator: "\n", omittingEmptySubsequences: false)
            for (number, line) in lines.enumerated() where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                for pattern in ["Process()", ".waitUntilExit()", "Foundation.Process"] where line.contains(pattern) {
                    Issue.record("\(file.lastPathComponent):\(number + 1): \(pattern) — use ChildProcess")
                }
            }
        }
        #expect(read > 100, "the sources were read")
    }
}
