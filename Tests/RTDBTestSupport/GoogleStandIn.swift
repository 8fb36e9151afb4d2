import Foundation
import RTDBCore

/// Tests/Interop/google_stand_in.py as a process on loopback: Google's token endpoint and
/// Firebase Auth's REST API (as its emulator serves it), speaking their real formats, with a
/// fresh service account key file whose `token_uri` points at it.
public final class GoogleStandIn: Sendable {
    /// The process.
    public let process: ChildProcess
    /// Its port.
    public let port: Int
    /// The service account key file it wrote.
    public let keyFile: String

    /// Starts it: the token endpoint issues `accessToken` for `lifetime`; ID tokens are signed
    /// HS256 with `idTokenSecret`, for `users` (`email:password:uid`).
    public static func start(
        accessToken: String, lifetime: Int = 3_600, idTokenSecret: String = "stand-in-secret",
        users: [String] = [], apiKey: String = "stand-in-api-key"
    ) async throws -> GoogleStandIn {
        guard let python = InteropPython.url else { throw TestFailure("no python venv: run .ci/run") }
        let keyFile = temporaryDirectory().appendingPathComponent("service-account.json").path
        var arguments = [
            InteropPython.script("google_stand_in.py").path, "--key-file", keyFile, "--access-token", accessToken,
            "--lifetime", String(lifetime), "--id-token-secret", idTokenSecret, "--api-key", apiKey,
        ]
        for user in users { arguments += ["--user", user] }
        let process = try await ChildProcess(python, arguments)
        // Its first line: `PORT <port> PID <pid>`.
        var words: [Substring] = []
        _ = try await eventually {
            words =
                process.standardOutput.split(separator: "\n").first { $0.hasPrefix("PORT ") }?
                .split(separator: " ") ?? []
            return words.count == 4 || !process.isRunning
        }
        guard words.count == 4, let port = Int(words[1]), let pid = Int32(words[3]) else {
            process.signal(SIGKILL)
            throw TestFailure("the stand-in did not start: \(process.standardError)")
        }
        return GoogleStandIn(process: process, port: port, pid: pid, keyFile: keyFile)
    }

    private init(process: ChildProcess, port: Int, pid: Int32, keyFile: String) {
        self.process = process
        self.port = port
        self.pid = pid
        self.keyFile = keyFile
    }

    /// The stand-in's own process id, as it printed it.
    private let pid: Int32

    /// The requests it answered, one JSON object each, in order.
    public var requests: [JSONValue] {
        process.standardOutput.split(separator: "\n").dropFirst().compactMap { try? JSONParser.parse(String($0)) }
    }

    /// `host:port`, as `FIREBASE_AUTH_EMULATOR_HOST` takes it.
    public var host: String { "127.0.0.1:\(port)" }

    /// Stops it: SIGKILL to the pid it printed (it keeps nothing; a stand-in left running kept
    /// the test process from exiting).
    public func stop() {
        process.signal(SIGKILL)
        kill(pid, SIGKILL)
    }
}
