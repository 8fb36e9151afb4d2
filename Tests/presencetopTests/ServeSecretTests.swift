import Foundation
import RTDBTestSupport
import Testing

/// `serve`'s admin secret kept out of `ps`: from a file or the environment, quietly; from the
/// command line with a warning; never in what the server prints.
@Suite struct ServeSecretTests {
    /// Whether `secret` is the admin credential of the server on `port` (and `owner` is not).
    static func isAdmin(_ secret: String, port: Int) async throws -> Bool {
        let admin = try await http(
            "GET", "/.admin/connections.json", port: port, headers: ["Authorization": "Bearer \(secret)"])
        let owner = try await http(
            "GET", "/.admin/connections.json", port: port, headers: ["Authorization": "Bearer owner"])
        return admin.status == 200 && owner.status == 401
    }

    @Test func aFileOrTheEnvironmentGivesTheSecretQuietly() async throws {
        let folder = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let secret = "s3cret-\(UUID().uuidString)"
        let file = folder.appendingPathComponent("secret.txt")
        try Data("\(secret)\n".utf8).write(to: file)
        for (arguments, environment) in [
            (["--memory", "--auth-secret-file", file.path], [:]),
            (["--memory"], ["PRESENCETOP_AUTH_SECRET": secret]),
        ] {
            let (server, port) = try await ChildProcess.serve(arguments, environment: environment)
            #expect(try await Self.isAdmin(secret, port: port), "\(arguments) \(environment.keys)")
            server.signal(SIGTERM)
            #expect(try await server.waitForExit(seconds: 30) == 0)
            #expect(!server.standardError.contains("warning"), "\(server.standardError)")
            #expect(!(server.standardOutput + server.standardError).contains(secret), "the secret is never printed")
        }
    }

    @Test func theCommandLineStillWorksButWarns() async throws {
        let secret = "s3cret-\(UUID().uuidString)"
        let (server, port) = try await ChildProcess.serve(["--memory", "--auth-secret", secret])
        #expect(try await Self.isAdmin(secret, port: port))
        #expect(server.standardError.contains("--auth-secret on the command line can be read by every local user"))
        #expect(server.standardError.contains("--auth-secret-file"))
        server.signal(SIGTERM)
        #expect(try await server.waitForExit(seconds: 30) == 0)
        #expect(!server.standardError.contains(secret))
    }

    @Test func mistakesAreNamedWithoutTheSecret() async throws {
        let cases: [([String], [String: String], String)] = [
            (
                ["--auth-secret", "x", "--auth-secret-file", "/tmp/x"], [:],
                "--auth-secret and --auth-secret-file cannot be used together"
            ),
            (["--auth-secret-file", "/nonexistent/secret"], [:], "--auth-secret-file: "),
            ([], ["PRESENCETOP_AUTH_SECRET": "  "], "PRESENCETOP_AUTH_SECRET is set but empty"),
        ]
        for (arguments, environment, message) in cases {
            let child = try await ChildProcess(
                ChildProcess.presencetop, ["serve", "--memory", "--port", "0"] + arguments, environment: environment)
            #expect(try await child.waitForExit() != 0, "\(arguments)")
            #expect(child.standardError.contains(message), "\(arguments): \(child.standardError)")
        }
    }
}
