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
        ("{\"type\":\"start\",\"t\":1,\"version\":1}\nnot json\n", ":2: not JSON"),
        (
            "{\"type\":\"start\",\"t\":1,\"version\":1}\n{\"type\":\"presence\",\"t\":-9223372036854775808,\"user\":\"a\",\"state\":null}\n",
            ":2: \"t\" is -9223372036854775808: a time must be from 0 to 253402300799999 ms since 1970"
        ),
        (
            "{\"type\":\"start\",\"t\":9223372036854775807,\"version\":1}\n",
            ":1: \"t\" is 9223372036854775807"
        ),
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

    /// A file the disk filled while it was written ends in the middle of a line: it plays up to
    /// the last whole one.
    @Test func aRecordingCutShortPlaysUpToItsLastWholeLine() throws {
        let (text, start) = try Self.recording()
        let whole = try RecordingTimeline(text: text, file: "r.jsonl")
        let cut = String(text.dropLast(text.count - (text.utf8.count - 40)))
        let timeline = try RecordingTimeline(text: cut, file: "r.jsonl")
        #expect(timeline.changeTimes.count == whole.changeTimes.count - 1)
        #expect(timeline.snapshot(at: start).users.map(\.id) == ["alex", "morgan"])
    }

    @Test func crlfLinesReadAsLFOnes() throws {
        let (text, start) = try Self.recording()
        let crlf = try RecordingTimeline(text: text.replacingOccurrences(of: "\n", with: "\r\n"), file: "r.jsonl")
        #expect(crlf.changeTimes == (try RecordingTimeline(text: text, file: "r.jsonl")).changeTimes)
        #expect(crlf.snapshot(at: start + .seconds(1)).users.count == 2)
        do {
            _ = try RecordingTimeline(
                text: "{\"type\":\"start\",\"t\":1,\"version\":1}\r\n\r\nbad\r\n", file: "r.jsonl")
            Issue.record("a bad line was read")
        } catch {
            #expect(error.description.hasPrefix("r.jsonl:3: not JSON"), "\(error)")
        }
    }

    /// The state at a moment comes from the nearest checkpoint before it: the same as replaying
    /// every line from the start, at every moment, and the latest events likewise.
    @Test func theStateFromACheckpointIsTheStateFromTheStart() throws {
        var lines = ["{\"type\":\"start\",\"t\":0,\"version\":1,\"user\":\"me\",\"device\":\"this\",\"server\":\"s\"}"]
        var generator = SystemRandomNumberGenerator()
        let seed = UInt64.random(in: 0...UInt64.max, using: &generator)
        var random = SeededRandom(seed: seed)
        for index in 0..<5_000 {
            let user = "u\(random.next() % 40)"
            let online = random.next() % 2 == 0
            let state =
                online
                ? "{\"connections\":[{\"id\":\"c\(index)\",\"device\":\"d\"}],\"lastOnline\":null}"
                : (random.next() % 5 == 0 ? "null" : "{\"connections\":[],\"lastOnline\":\(index)}")
            lines.append("{\"type\":\"presence\",\"t\":\(index / 3),\"user\":\"\(user)\",\"state\":\(state)}")
        }
        let timeline = try RecordingTimeline(text: lines.joined(separator: "\n") + "\n", file: "r.jsonl")
        for time in [0, 1, 700, 1_023, 1_024, 1_500, 1_666, 1_667, 5_000] {
            let at = UnixTime(millisecondsSince1970: Int64(time))
            let prefix = lines.prefix { line in
                guard let t = (try? JSONParser.parse(line))?["t"]?.intValue else { return true }
                return t <= Int64(time)
            }
            let replayed = try RecordingTimeline(text: prefix.joined(separator: "\n") + "\n", file: "r.jsonl")
            let fast = timeline.state(at: at, events: 50)
            let slow = replayed.state(at: at, events: 50)
            #expect(fast.snapshot.users == slow.snapshot.users, "seed \(seed), at \(time)")
            #expect(fast.events.map { "\($0.kind)" } == slow.events.map { "\($0.kind)" }, "seed \(seed), at \(time)")
        }
    }
}
