import Foundation
import RTDBTestSupport
import Testing

/// The official firebase-admin Python SDK, unmodified, against a real `presencetop serve`.
///
/// Needs the venv `.ci/run` makes (`.venv` with Tests/Interop/requirements.txt). Without it the
/// test is skipped locally; in CI (`CI=true`) it runs and a missing venv fails it.
@Suite struct FirebaseAdminInteropTests {
    static var required: Bool { InteropPython.required }

    @Test(.enabled(if: required, "needs .venv with firebase-admin (made by .ci/run); required when CI=true"))
    func firebaseAdminWorksUnchanged() async throws {
        let (server, port) = try await ChildProcess.serve(["--memory", "--stream-keepalive", "0.5"])
        defer { server.signal(SIGTERM) }
        let output = try await Self.runScript("firebase_admin_interop.py", port: port)
        #expect(output.contains("0 failed"), "\(output)")
        #expect(!output.contains("FAIL"), "\(output)")
    }

    /// Runs an interop script against the server on `port`; its output, once it exited 0.
    static func runScript(_ name: String, port: Int) async throws -> String {
        let python = try #require(InteropPython.url, "no python venv with firebase-admin: run .ci/run")
        let script = InteropPython.script(name)
        let run = try await ChildProcess(python, [script.path, "http://127.0.0.1:\(port)"])
        let status = try await run.waitForExit(seconds: 60)
        #expect(status == 0, "\(run.standardOutput)\n\(run.standardError)")
        return run.standardOutput
    }

    /// The presence rules, enforced on firebase-admin acting as users (`databaseAuthVariableOverride`).
    @Test(.enabled(if: required, "needs .venv with firebase-admin (made by .ci/run); required when CI=true"))
    func firebaseAdminActsAsUsersUnderThePresenceRules() async throws {
        let directory = temporaryDirectory()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let printed = try await ChildProcess(ChildProcess.presencetop, ["serve", "--print-presence-rules"])
        #expect(try await printed.waitForExit() == 0)
        let rules = directory.appendingPathComponent("presence.rules.json")
        try printed.standardOutput.write(to: rules, atomically: true, encoding: .utf8)
        let (server, port) = try await ChildProcess.serve(["--memory", "--rules", rules.path])
        defer { server.signal(SIGTERM) }
        let output = try await Self.runScript("firebase_admin_rules_interop.py", port: port)
        #expect(output.contains("8 passed, 0 failed"), "\(output)")
    }
}
