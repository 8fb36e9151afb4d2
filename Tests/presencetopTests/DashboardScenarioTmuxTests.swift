import Foundation
import PresenceLab
import RTDBCore
import RTDBTestSupport
import Testing

/// `presencetop --record FILE` in a real terminal: what the session showed, as JSON lines.
@Suite(.serialized) struct DashboardRecordTmuxTests {
    @Test(.enabled(if: DashboardTmuxTests.enabled, "needs tmux (installed by .ci/run; required when CI=true)"))
    func aRecordingHoldsPresenceTheConnectionAndTheQueue() async throws {
        let folder = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("session.jsonl")
        let (command, home) = try DashboardTmuxTests.command("--users 1 --churn 0 --memory --record \(file.path)")
        defer { try? FileManager.default.removeItem(at: home) }
        let tmux = try await TmuxSession(command: command, width: 120, height: 36)
        defer { tmux.close() }
        var (ok, screen) = try await tmux.waitFor { DashboardTmuxTests.isSettled($0) }
        #expect(ok, "settled:\n\(screen)")
        // Offline, a write waits in the queue; back online, it drains.
        try await tmux.send("n")
        (ok, screen) = try await tmux.waitFor { $0.contains("disconnected") }
        try await tmux.send("w")
        (ok, screen) = try await tmux.waitFor { $0.contains("Pending writes (1)") }
        #expect(ok, "a write queued:\n\(screen)")
        try await tmux.send("n")
        (ok, screen) = try await tmux.waitFor { $0.contains("Pending writes (0)") && DashboardTmuxTests.isSettled($0) }
        #expect(ok, "drained:\n\(screen)")
        (ok, screen) = try await tmux.quit()
        #expect(ok, "q exits 0:\n\(screen)")

        let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n").map {
            try JSONParser.parse(String($0))
        }
        #expect(lines.first?["type"] == "start" && lines.first?["version"] == 1)
        let times = lines.compactMap { $0["t"]?.intValue }
        #expect(times.count == lines.count && times == times.sorted(), "every line has a time, in order")
        let phases = lines.filter { $0["type"] == "connection" }.compactMap { $0["state"]?["phase"]?.stringValue }
        // Connected, then cut off by n, then connected again (the first lines may be from before
        // the first connection).
        let connected = phases.firstIndex(of: "connected") ?? phases.count
        #expect(
            phases.dropFirst(connected).contains { $0 == "waiting" || $0 == "offline" } && phases.last == "connected",
            "\(phases)")
        let queues = lines.filter { $0["type"] == "queue" }.compactMap { $0["state"]?["pending"]?.arrayValue?.count }
        #expect(queues.contains(1) && queues.last == 0, "\(queues)")
        #expect(lines.contains { $0["type"] == "presence" && $0["user"] == "morgan" })
    }
}

extension DashboardRecordTmuxTests {
    /// A recording on a disk that fills up: the status line says it stopped, and so does the
    /// exit; the file replays up to then.
    @Test(.enabled(if: DashboardTmuxTests.enabled, "needs tmux (installed by .ci/run; required when CI=true)"))
    func aRecordingThatFillsTheDiskSaysSoOnScreenAndAtExit() async throws {
        let ran: Void? = try await SmallDisk.using(bytes: 8_192) { disk in try await Self.recordOnto(disk) }
        if ran == nil, SmallDisk.required { Issue.record("CI=true: this test needs to mount a tmpfs (root)") }
    }

    private static func recordOnto(_ disk: SmallDisk) async throws {
        let file = disk.url.appendingPathComponent("session.jsonl")
        let (command, home) = try DashboardTmuxTests.command("--users 6 --churn 0.2 --memory --record \(file.path)")
        defer { try? FileManager.default.removeItem(at: home) }
        let tmux = try await TmuxSession(command: command, width: 160, height: 40)
        defer { tmux.close() }
        var (ok, screen) = try await tmux.waitFor(seconds: 60) { $0.contains("recording to") && $0.contains("stopped") }
        #expect(ok, "the status line says the recording stopped:\n\(screen)")
        (ok, screen) = try await tmux.quit()
        #expect(ok, "q exits 0:\n\(screen)")
        let words = screen.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(words.contains("stopped early (No space left on device); it replays up to"), "\(screen)")
        let bytes = try Data(contentsOf: file)
        #expect(bytes.last == 0x0A)
        _ = try RecordingTimeline(bytes: Array(bytes), file: file.path)
    }
}

/// `presencetop replay FILE` in a real terminal: the panes at the cursor, moved by keys.
@Suite(.serialized) struct ReplayTmuxTests {
    /// A recording: alex online with a phone, this device connected; at +30 s this device is
    /// cut off with a write queued; at +60 s alex has gone offline.
    static let recording = """
        {"type":"start","t":1764000000000,"version":1,"server":"embedded 127.0.0.1:9000 ns=demo","user":"morgan","device":"this device"}
        {"type":"presence","t":1764000000000,"user":"alex","state":{"lastOnline":null,"connections":[{"id":"-Na","device":"phone","connectedAt":1764000000000}]}}
        {"type":"connection","t":1764000000000,"state":{"phase":"connected","link":"up","entry":"-Nme","serverTimeOffsetMs":0}}
        {"type":"queue","t":1764000000000,"state":{"pending":[],"deadLetters":[]}}
        {"type":"connection","t":1764000030000,"state":{"phase":"waiting","link":"offline","entry":"-Nme","serverTimeOffsetMs":0}}
        {"type":"queue","t":1764000030000,"state":{"pending":[{"id":4,"operation":"set","path":"/notes/morgan/-Nw","bytes":31,"enqueuedAt":1764000030000,"attempts":0,"state":"queued"}],"deadLetters":[]}}
        {"type":"presence","t":1764000060000,"user":"alex","state":{"lastOnline":1764000060000,"connections":[]}}

        """

    @Test(.enabled(if: DashboardTmuxTests.enabled, "needs tmux (installed by .ci/run; required when CI=true)"))
    func theCursorShowsTheStateAtItsTime() async throws {
        let folder = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("session.jsonl")
        try Self.recording.write(to: file, atomically: true, encoding: .utf8)
        let (command, home) = try DashboardTmuxTests.command("replay \(file.path) --paused")
        defer { try? FileManager.default.removeItem(at: home) }
        let tmux = try await TmuxSession(command: command, width: 140, height: 40)
        defer { tmux.close() }
        func alex(_ screen: String) -> Substring? { screen.split(separator: "\n").first { $0.contains("│ alex ") } }
        var (ok, screen) = try await tmux.waitFor { $0.contains("REPLAY 16:00:00.000 UTC ❚❚") }
        #expect(ok, "paused at the start:\n\(screen)")
        #expect(alex(screen)?.contains("● online") == true && screen.contains("Pending writes (0)"), "\(screen)")
        #expect(
            screen.contains("Space play/pause  ←/→ change") && !screen.contains("n network"),
            "the footer shows the replay's keys, not the live session's:\n\(screen)")
        // → steps to the next change: this device cut off, its write queued.
        try await tmux.send("Right")
        (ok, screen) = try await tmux.waitFor {
            $0.contains("REPLAY 16:00:30.000") && $0.contains("Pending writes (1)")
        }
        #expect(ok, "→ moves to the next change:\n\(screen)")
        // End: alex has gone offline.
        try await tmux.send("End")
        (ok, screen) = try await tmux.waitFor {
            alex($0)?.contains("○ offline") == true && $0.contains("REPLAY 16:01:00.000")
        }
        #expect(ok, "End shows the last state:\n\(screen)")
        #expect(screen.contains("alex offline"), "the events up to the cursor:\n\(screen)")
        // Home, then play at ×64: the cursor moves on its own.
        try await tmux.send("Home")
        for _ in 0..<6 { try await tmux.send("+") }
        try await tmux.send("Space")
        (ok, screen) = try await tmux.waitFor { $0.contains("×64") && alex($0)?.contains("○ offline") == true }
        #expect(ok, "playing at ×64 reaches the end:\n\(screen)")
        (ok, screen) = try await tmux.quit()
        #expect(ok, "q exits 0:\n\(screen)")
    }

    /// A million lines take a while to read; the dashboard is up at once, says how far the
    /// reading has come, and `q` quits in the middle of it.
    @Test(.enabled(if: DashboardTmuxTests.enabled, "needs tmux (installed by .ci/run; required when CI=true)"))
    func keysActWhileAMillionLinesAreRead() async throws {
        let folder = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("long.jsonl")
        // Written by awk: a debug build's string building would hold one of the test pool's threads
        // for seconds. (%.0f: mawk's %d stops at 2^31.)
        try (Self.recording.split(separator: "\n").prefix(1).joined() + "\n").write(
            to: file, atomically: false, encoding: .utf8)
        let program =
            #"BEGIN { for (i = 0; i < 1000000; i++) printf "{\"type\":\"presence\",\"t\":%.0f,\"user\":\"u%d\",\"state\":{\"lastOnline\":%d,\"connections\":[]}}\n", 1764000000000 + i, i % 97, i }"#
        let awk = try await ChildProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", "awk '\(program)' >> '\(file.path)'"])
        #expect(try await awk.waitForExit() == 0, "\(awk.standardError)")
        let (command, home) = try DashboardTmuxTests.command("replay \(file.path)")
        defer { try? FileManager.default.removeItem(at: home) }
        let tmux = try await TmuxSession(command: command, width: 120, height: 36)
        defer { tmux.close() }
        var (ok, screen) = try await tmux.waitFor { $0.contains("REPLAY reading") && $0.contains("% of") }
        #expect(ok, "the reading shows its progress:\n\(screen)")
        (ok, screen) = try await tmux.quit()
        #expect(ok, "q exits 0 while the file is read:\n\(screen)")
    }
}
