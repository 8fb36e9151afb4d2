import Foundation
import RTDBTestSupport
import Testing

/// The command line and the files it names, given what an attacker or an unlucky user would:
/// every case ends in an error that names the option or the file's line, never a trap.
@Suite struct HostileInputProcessTests {
    /// Runs `presencetop` with `arguments` (and a settings folder), and returns its status and
    /// standard error.
    static func run(_ arguments: [String], settings: String? = nil) async throws -> (status: Int32, stderr: String) {
        let folder = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        if let settings {
            let file = folder.appendingPathComponent("presencetop/config.toml")
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(settings.utf8).write(to: file)
        }
        let process = try await ChildProcess(
            ChildProcess.presencetop, arguments, environment: ["XDG_CONFIG_HOME": folder.path])
        let status = try await process.waitForExit(seconds: 60)
        return (status, process.standardError)
    }

    @Test(arguments: [
        (["replay", "x.jsonl", "--at", "1e16"], "--at must be a number of seconds from 0 to"),
        (["replay", "x.jsonl", "--at", "inf"], "--at must be a number of seconds from 0 to"),
        (
            ["serve", "--heartbeat-timeout", "1e300"],
            "--heartbeat-timeout must be a number of seconds from 0.001 to 86400"
        ),
        (["serve", "--stream-keepalive", "inf"], "--stream-keepalive must be a number of seconds"),
        (["serve", "--stream-keepalive", "nan"], "--stream-keepalive must be a number of seconds"),
        (["demo", "--seconds", "1e300"], "--seconds must be a number of seconds"),
        (["chaos", "--duration", "1e300"], "--duration must be a number of seconds from 5"),
        (["--churn", "1e300"], "--churn must be a number of seconds from 0 to 86400"),
        (["--heartbeat-timeout=-inf"], "--heartbeat-timeout must be a number of seconds"),
    ])
    func secondsPastWhatADurationHoldsAreRefusedByName(arguments: [String], message: String) async throws {
        let (status, stderr) = try await Self.run(arguments)
        #expect(status == 64, "a usage error, not a trap: \(stderr)")
        #expect(stderr.contains(message), "\(stderr)")
    }

    @Test(
        arguments: [
            ("[options]\nchurn = 1e300\n", "config.toml:2: [options] churn: --churn must be a number of seconds"),
            (
                "\n[options]\nheartbeat-timeout = inf\n",
                "config.toml:3: [options] heartbeat-timeout: --heartbeat-timeout must"
            ),
            (
                "[options]\nusers = \"many\"\n",
                "config.toml:2: [options] users: The value 'many' is invalid for '--users"
            ),
            (
                "[options]\r\nusers = 4\r\nlink = \"moon\"\r\n",
                "config.toml:3: [options] link: --link 'moon' is not a preset"
            ),
            ("theme = \"ok\"\n# caf\u{E9}\n[options]\nusers = 3\n", nil),
            ("[keys]\nn = \"N\"\nn = \"M\"\n", "config.toml:3:"),
        ] as [(String, String?)])
    func aSettingsFileValueIsNamedWithItsLine(settings: String, message: String?) async throws {
        let (status, stderr) = try await Self.run([], settings: settings)
        #expect(status == 2, "\(stderr)")
        if let message {
            #expect(stderr.contains(message), "\(stderr)")
        } else {
            #expect(stderr.contains("needs a terminal"), "a good file gets as far as the terminal check: \(stderr)")
        }
    }

    @Test func aSettingsFileThatIsNotUTF8IsNamedNotIgnored() async throws {
        let (status, stderr) = try await Self.run([], settings: "[options]\nusers = 3\n# \u{FF}\n")
        #expect(status == 2 && !stderr.contains("not UTF-8"), "a UTF-8 ÿ is fine: \(stderr)")
        let folder = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("presencetop/config.toml")
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("[options]\nusers = 3\n# \u{1}".utf8 + [0xFF, 0x0A]).write(to: file)
        let process = try await ChildProcess(
            ChildProcess.presencetop, [], environment: ["XDG_CONFIG_HOME": folder.path])
        #expect(try await process.waitForExit() == 2)
        #expect(process.standardError.contains("config.toml:3: not UTF-8 text (byte 0xFF)"), "\(process.standardError)")
    }

    @Test func aDottedKeyFiftyThousandLevelsDeepIsRefusedNotASegfault() async throws {
        let deep = Array(repeating: "a", count: 50_000).joined(separator: ".")
        for settings in [
            "\(deep) = 1\n", "[\(deep)]\nx = 1\n", "[options]\nusers = 3\nx = \(String(repeating: "[", count: 5_000))",
        ] {
            let (status, stderr) = try await Self.run([], settings: settings)
            #expect(status == 2, "\(stderr.prefix(300))")
            #expect(
                stderr.contains("config.toml:") && stderr.contains("the most this reader takes is 64")
                    || stderr.contains("nested more than 64"), "\(stderr.prefix(300))")
        }
        let folder = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let scenario = folder.appendingPathComponent("deep.toml")
        try Data("[\(deep)]\n".utf8).write(to: scenario)
        let (status, stderr) = try await Self.run(["demo", "--scenario", scenario.path])
        #expect(status == 2 && stderr.contains("deep.toml:1:"), "\(stderr.prefix(300))")
        let theme = folder.appendingPathComponent("deep-theme.toml")
        try Data("\(deep) = 1\n".utf8).write(to: theme)
        let replay = try await Self.run([
            "replay", folder.appendingPathComponent("none.jsonl").path, "--theme", theme.path,
        ])
        #expect(
            replay.status == 2 && replay.stderr.contains("none.jsonl: no such file"), "\(replay.stderr.prefix(300))")
    }

    @Test func aFolderOrADeviceGivenAsAFileIsSaidSo() async throws {
        let folder = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let cases: [([String], String)] = [
            (["demo", "--scenario", folder.path], "the scenario file \(folder.path): is a folder, not a file"),
            (["demo", "--scenario", "/dev/zero"], "the scenario file /dev/zero: is a device, not a regular file"),
            (["serve", "--rules", folder.path], "the rules file \(folder.path): is a folder, not a file"),
            (["serve", "--rules", "/dev/zero"], "is a device, not a regular file"),
            (["replay", folder.path], "is a folder, not a file"),
            (["replay", "/dev/zero"], "is a device, not a regular file"),
            (["--record", "/dev/full"], "cannot write the recording /dev/full: it is not a regular file"),
            (["--record", folder.path], "cannot write the recording \(folder.path): it is a folder"),
        ]
        for (arguments, message) in cases {
            let (status, stderr) = try await Self.run(arguments)
            #expect(status == 2, "\(arguments): \(stderr)")
            #expect(stderr.contains(message), "\(arguments): \(stderr)")
            #expect(!stderr.contains("NSCocoaErrorDomain") && !stderr.contains("permission"), "\(stderr)")
        }
        var status = stat()
        #expect(stat("/dev/full", &status) == 0 && status.st_mode & S_IFMT == S_IFCHR, "/dev/full is still a device")
    }

    /// Devices past the process's descriptor limit are refused with an error that says so; the
    /// process never traps (libdispatch died with SIGILL about half the time before).
    @Test func runningOutOfDescriptorsIsAnErrorNeverATrap() async throws {
        let folder = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let big = folder.appendingPathComponent("big.toml")
        try "[population]\nusers = 50\ndevices = 50\n[[expect]]\nno_ghosts = true\nwithin = 5\n".write(
            to: big, atomically: true, encoding: .utf8)
        let adding = folder.appendingPathComponent("adding.toml")
        let steps = (1...50).map { "[[step]]\nat = \(Double($0) / 50)\nadd_device = \"alex\"\n" }.joined()
        try ("[population]\nusers = 2\ndevices = 2\n" + steps + "[[expect]]\nno_ghosts = true\nwithin = 3\n").write(
            to: adding, atomically: true, encoding: .utf8)
        for (file, limit) in [(big, 256), (adding, 200)] {
            let command = "ulimit -n \(limit) && exec '\(ChildProcess.presencetop.path)' demo --scenario '\(file.path)'"
            let demo = try await ChildProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", command])
            let status = try await demo.waitForExit(seconds: 120)
            #expect(status == 0 || status == 1, "an exit, not a signal (\(status)): \(demo.standardError.suffix(500))")
            #expect(
                (demo.standardOutput + demo.standardError).contains("too many open files: "),
                "\(demo.standardOutput.suffix(500)) \(demo.standardError.suffix(500))")
        }
    }
}
