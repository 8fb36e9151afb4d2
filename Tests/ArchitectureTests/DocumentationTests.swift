import Foundation
import Testing

/// The pages stay true to the code: README is a newcomer's page (at most 250 lines, every link
/// resolving), and the architecture page's source layout names every module folder there is.
@Suite struct DocumentationTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    @Test func theReadmeIsShortAndEveryLinkInItResolves() throws {
        let readme = try Self.text("README.md")
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false).count
        #expect(lines <= 251, "README.md has \(lines) lines; the rest belongs on a page under docs/")
        // Markdown links to files of the repository: ](path) or ](path#anchor).
        var targets: [String] = []
        var rest = readme[...]
        while let open = rest.range(of: "](") {
            let after = rest[open.upperBound...]
            guard let close = after.firstIndex(of: ")") else { break }
            targets.append(String(after[..<close]))
            rest = after[close...]
        }
        #expect(!targets.isEmpty)
        for target in targets where !target.contains("://") {
            let file = String(target.split(separator: "#", maxSplits: 1).first ?? "")
            #expect(
                FileManager.default.fileExists(atPath: Self.root.appendingPathComponent(file).path),
                "README.md links to \(target), which is not there")
        }
        // The scripts it tells a user to run.
        for script in ["scripts/install", ".ci/run"] {
            #expect(readme.contains(script), "README.md tells a user to run \(script)")
            #expect(FileManager.default.isExecutableFile(atPath: Self.root.appendingPathComponent(script).path))
        }
    }

    @Test func theArchitecturePageNamesEveryModuleFolder() throws {
        let page = try Self.text("docs/architecture.md")
        let folders = try FileManager.default.contentsOfDirectory(
            atPath: Self.root.appendingPathComponent("Sources").path)
        #expect(!folders.isEmpty)
        for folder in folders.sorted() {
            #expect(
                page.contains("Sources/\(folder) "),
                "docs/architecture.md's source layout does not name Sources/\(folder)")
        }
    }
}
