import Foundation
import RTDBTestSupport
import Testing

/// A settings file's `[[database]]` values reach the database they belong to as they are.
@Suite struct ShardedSettingsTests {
    /// A NUL in a value could have split it into arguments of their own (the databases after the
    /// first travel to the command as one JSON array each).
    @Test func aValueWithANULNeverBecomesAnOption() async throws {
        let home = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: home) }
        let settings = home.appendingPathComponent("presencetop")
        try FileManager.default.createDirectory(at: settings, withIntermediateDirectories: true)
        let toml = """
            [[database]]
            url = "http://127.0.0.1:1?ns=a"

            [[database]]
            url = "http://127.0.0.1:2?ns=b\\u0000--layout\\u0000moon"
            """
        try Data(toml.utf8).write(to: settings.appendingPathComponent("config.toml"))
        let child = try await ChildProcess(
            ChildProcess.presencetop, [], environment: ["XDG_CONFIG_HOME": home.path, "TERM": "xterm"])
        // Refused for want of a terminal (TOMLKit reads the value up to its NUL), never for a layout.
        #expect(try await child.waitForExit() != 0)
        #expect(!child.standardError.contains("moon"), "\(child.standardError)")
    }
}
