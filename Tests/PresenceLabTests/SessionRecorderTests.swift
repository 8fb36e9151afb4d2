import Foundation
import Presence
import PresenceLab
import RTDBCore
import RTDBTestSupport
import Testing

/// `--record`: what changed, as JSON lines with the server's time, to a real file.
@Suite struct SessionRecorderTests {
    static let start = UnixTime(millisecondsSince1970: 1_764_000_000_000)

    static func snapshot(
        at offset: Duration, users: [UserPresence], phase: ConnectionPhase = .connected(sessionID: "s1"),
        pending: [QueuedWrite] = []
    ) -> WatchSnapshot {
        WatchSnapshot(
            takenAt: start + offset, server: "embedded 127.0.0.1:9000 ns=demo",
            thisDevice: .init(
                user: "morgan", device: "this device", entryKey: "-Nme",
                status: ConnectionStatus(phase: phase, serverTimeOffset: .milliseconds(250)),
                link: DeviceLink(mode: .up, conditions: "perfect"), pendingWrites: pending),
            users: PresenceList(users))
    }

    static func lines(_ file: URL) throws -> [JSONValue] {
        try String(contentsOf: file, encoding: .utf8).split(separator: "\n").map { try JSONParser.parse(String($0)) }
    }

    @Test func stampsNeverGoBackWhenTheEstimateDoes() throws {
        let folder = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("session.jsonl")
        let recorder = try SessionRecorder(path: file.path)
        recorder.observe(Self.snapshot(at: .zero, users: [UserPresence(id: "alex")]))
        // A new skew sample puts the estimate 100 ms earlier than the last line's.
        recorder.observe(
            Self.snapshot(at: .milliseconds(-100), users: [UserPresence(id: "alex", connections: [.init(id: "-Na")])]))
        recorder.close()
        let times = try Self.lines(file).compactMap { $0["t"]?.intValue }
        #expect(times.count > 4 && times == times.sorted(), "\(times)")
        #expect(times.last == Self.start.millisecondsSince1970 + 250)
    }

    @Test func onlyWhatChangedIsWrittenWithTheServersTime() throws {
        let folder = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("session.jsonl")
        let recorder = try SessionRecorder(path: file.path)
        let alex = UserPresence(id: "alex", connections: [.init(id: "-Na", device: "phone", connectedAt: Self.start)])
        let morgan = UserPresence(id: "morgan", connections: [.init(id: "-Nme", device: "this device")])
        recorder.observe(Self.snapshot(at: .zero, users: [alex, morgan]))
        recorder.observe(Self.snapshot(at: .milliseconds(50), users: [alex, morgan]))
        let write = QueuedWrite(id: 7, operation: "set", path: "/notes/morgan/-Nw", bytes: 31, enqueuedAt: Self.start)
        let offline = UserPresence(id: "alex", lastOnline: Self.start + .seconds(1))
        recorder.observe(
            Self.snapshot(
                at: .seconds(1), users: [offline, morgan],
                phase: .waitingToRetry(attempt: 1, retryAt: nil, reason: "reset"), pending: [write]))
        recorder.observe(Self.snapshot(at: .seconds(2), users: [morgan]))
        recorder.close()

        let lines = try Self.lines(file)
        #expect(
            lines.map { $0["type"]?.stringValue ?? "?" } == [
                "start", "presence", "presence", "connection", "queue",  // the first snapshot: everything
                "presence", "connection", "queue",  // alex offline, this device waiting with a write
                "presence", "connection", "queue",  // alex gone from the tree, connected, queue drained
            ])
        #expect(lines[0]["version"] == 1 && lines[0]["user"] == "morgan")
        // The server's time: the device's clock plus its estimated offset (250 ms).
        #expect(lines[0]["t"]?.intValue == Self.start.millisecondsSince1970 + 250)
        #expect(lines[5]["user"] == "alex" && lines[5]["state"]?["connections"]?.arrayValue?.isEmpty == true)
        #expect(lines[5]["state"]?["lastOnline"]?.intValue == Self.start.millisecondsSince1970 + 1_000)
        #expect(lines[6]["state"]?["phase"] == "waiting")
        #expect(lines[7]["state"]?["pending"]?.arrayValue?.first?["path"] == "/notes/morgan/-Nw")
        #expect(lines[8]["user"] == "alex" && lines[8]["state"] == .null)
        #expect(lines[10]["state"]?["pending"]?.arrayValue?.isEmpty == true)
    }

    @Test func aFileThatCannotBeWrittenIsNamed() {
        #expect {
            try SessionRecorder(path: "/nonexistent-folder/session.jsonl")
        } throws: { error in
            "\(error)".contains("/nonexistent-folder/session.jsonl")
        }
    }

    /// The path is opened as given: a symlink's target is written and the link stays; a device
    /// or a folder is refused before anything touches it.
    @Test func aSymlinkIsFollowedAndADeviceIsRefused() throws {
        let folder = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let target = folder.appendingPathComponent("target.jsonl")
        try Data("old\n".utf8).write(to: target)
        let link = folder.appendingPathComponent("link.jsonl")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        let recorder = try SessionRecorder(path: link.path)
        recorder.observe(Self.snapshot(at: .zero, users: []))
        recorder.close()
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == target.path)
        #expect(try Self.lines(target).first?["type"] == "start")
        for path in ["/dev/full", "/dev/null", folder.path] {
            #expect(throws: SessionRecorder.Failure.self, "\(path)") { try SessionRecorder(path: path) }
        }
        var status = stat()
        #expect(stat("/dev/full", &status) == 0 && status.st_mode & S_IFMT == S_IFCHR, "/dev/full is still a device")
    }

    /// A disk that fills up stops the recording at its last whole line; it replays up to there.
    @Test func aFullDiskStopsTheRecordingAtItsLastWholeLine() async throws {
        let ran: Void? = try await SmallDisk.using(bytes: 16_384) { disk in try Self.fillTheDisk(disk) }
        if ran == nil, SmallDisk.required { Issue.record("CI=true: this test needs to mount a tmpfs (root)") }
    }

    private static func fillTheDisk(_ disk: SmallDisk) throws {
        let file = disk.url.appendingPathComponent("session.jsonl")
        let recorder = try SessionRecorder(path: file.path)
        var written = 0
        for second in 0..<2_000 where recorder.failure == nil {
            let users = (0..<5).map { index in
                UserPresence(
                    id: "user\(index)",
                    connections: [.init(id: "-N\(second)-\(index)", device: "phone", connectedAt: Self.start)])
            }
            recorder.observe(snapshot(at: .seconds(Int64(second)), users: users))
            written = second
        }
        #expect(recorder.failure?.contains("No space left on device") == true, "\(recorder.failure ?? "no failure")")
        recorder.observe(snapshot(at: .seconds(5_000), users: []))
        recorder.close()
        let bytes = try Data(contentsOf: file)
        #expect(bytes.last == 0x0A, "the file ends with a whole line")
        let timeline = try RecordingTimeline(bytes: Array(bytes), file: file.path)
        #expect(timeline.end < start + .milliseconds(250) + .seconds(Int64(written)), "nothing after the failure")
        #expect(!timeline.snapshot(at: timeline.end).users.isEmpty)
    }
}
