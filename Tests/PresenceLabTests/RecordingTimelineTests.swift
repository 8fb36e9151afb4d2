import Foundation
import Presence
import PresenceLab
import RTDBCore
import RTDBTestSupport
import Testing

/// A recording read back: the state at any moment, and bad lines named.
@Suite struct RecordingTimelineTests {
    /// A recording made by ``SessionRecorder`` from three snapshots, 0 s, 1 s and 2 s in.
    static func recording() throws -> (text: String, start: UnixTime) {
        let folder = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("session.jsonl")
        let recorder = try SessionRecorder(path: file.path)
        let start = SessionRecorderTests.start
        let alex = UserPresence(id: "alex", connections: [.init(id: "-Na", device: "phone", connectedAt: start)])
        let morgan = UserPresence(id: "morgan", connections: [.init(id: "-Nme", device: "this device")])
        recorder.observe(SessionRecorderTests.snapshot(at: .zero, users: [alex, morgan]))
        let write = QueuedWrite(id: 7, operation: "set", path: "/notes/morgan/-Nw", bytes: 31, enqueuedAt: start)
        recorder.observe(
            SessionRecorderTests.snapshot(
                at: .seconds(1), users: [UserPresence(id: "alex", lastOnline: start + .seconds(1)), morgan],
                phase: .waitingToRetry(attempt: 1, retryAt: nil, reason: "reset"), pending: [write]))
        recorder.observe(SessionRecorderTests.snapshot(at: .seconds(2), users: [morgan]))
        recorder.close()
        // The recorded times are the server's: 250 ms ahead of the device's clock.
        return (try String(contentsOf: file, encoding: .utf8), start + .milliseconds(250))
    }

    @Test func theStateAtAnyMomentIsTheLastLineBeforeIt() throws {
        let (text, start) = try Self.recording()
        let timeline = try RecordingTimeline(text: text, file: "session.jsonl")
        #expect(timeline.start == start && timeline.end == start + .seconds(2))
        #expect(timeline.user == "morgan" && timeline.server == "embedded 127.0.0.1:9000 ns=demo")

        let first = timeline.snapshot(at: start + .milliseconds(500))
        #expect(first.users.map(\.id) == ["alex", "morgan"])
        #expect(first.users.first?.connections.map(\.device) == ["phone"])
        #expect(first.thisDevice?.status.phase.isConnected == true && first.thisDevice?.pendingWrites.isEmpty == true)
        #expect(first.takenAt == start + .milliseconds(250), "the device's clock: the server's time less the offset")

        let second = timeline.snapshot(at: start + .milliseconds(1_500))
        #expect(second.users.first { $0.id == "alex" }?.isOnline == false)
        #expect(second.thisDevice?.status.phase.isConnected == false)
        #expect(second.thisDevice?.pendingWrites.map(\.path) == ["/notes/morgan/-Nw"])

        let last = timeline.snapshot(at: timeline.end)
        #expect(last.users.map(\.id) == ["morgan"], "alex is gone from the tree")
        #expect(last.thisDevice?.pendingWrites.isEmpty == true)

        // What happened, as the dashboard's events, up to the cursor.
        let events = timeline.state(at: start + .milliseconds(1_500)).events.map { "\($0.kind)" }
        #expect(events.contains { $0.contains("alex offline") }, "\(events)")
        #expect(events.contains { $0.contains("queue(depth: 1)") }, "\(events)")
        #expect(!timeline.state(at: start).events.contains { "\($0.kind)".contains("offline") })
    }

    @Test(arguments: [
        ("", "empty: no \"start\" line"),
        (
            "{\"type\":\"presence\",\"t\":1,\"user\":\"a\",\"state\":null}",
            ":1: the first line must be the \"start\" line"
        ),
        ("{\"type\":\"start\",\"t\":1,\"version\":1}\nnot json", ":2: not JSON"),
        ("{\"type\":\"start\",\"t\":1,\"version\":9}", ":1: version 9 is not one this build reads"),
        (
            "{\"type\":\"start\",\"t\":1,\"version\":1}\n{\"type\":\"presence\",\"user\":\"a\"}",
            ":2: a line needs \"type\" and \"t\""
        ),
        (
            "{\"type\":\"start\",\"t\":1,\"version\":1}\n{\"type\":\"connection\",\"t\":2,\"state\":{\"phase\":\"dancing\",\"link\":\"up\"}}",
            ":2: unknown phase 'dancing'"
        ),
    ])
    func aBadLineIsNamed(_ text: String, _ problem: String) {
        #expect {
            try RecordingTimeline(text: text, file: "r.jsonl")
        } throws: { error in
            "\(error)".hasPrefix("r.jsonl") && "\(error)".contains(problem)
        }
    }

    @Test func linesOfKindsItDoesNotKnowAreSkipped() throws {
        let timeline = try RecordingTimeline(
            text: "{\"type\":\"start\",\"t\":1,\"version\":1}\n{\"type\":\"later-kind\",\"t\":5}\n", file: "r.jsonl")
        #expect(timeline.changeTimes.isEmpty)
    }
}
