import Dashboard
import DashboardRuntime
import Foundation
import PresenceLab
import RTDBCore
import Synchronization

/// A recording played back with a time cursor: the panes show the state at the cursor, which
/// moves at the chosen speed while playing.
///
/// The recording is read on a thread of its own while the dashboard already runs, so keys act
/// at once however long the file is (`q` quits in the middle of a million lines); until it is
/// read the panes say how far the reading has come.
///
/// Its keys are `KeyMap`'s replay bindings (Space plays or pauses, ←/→ step to the previous or
/// next change, `[`/`]` move 10 s, Home/End go to the start or the end, `-`/`+` halve or double
/// the speed), which the reducer turns into `.replay` effects for ``perform(_:)``.
final class ReplaySource: DashboardSource {
    /// Time since the replay was made, on its ``TimeSource``'s clock.
    private let clock: @Sendable () -> Duration
    private let state: Mutex<State>
    private let events = Mutex<[WatchEvent]>([])
    private let file: String
    /// Set when the dashboard is done: a reading still going stops.
    private let abandoned = Atomic<Bool>(false)

    private struct State {
        var load: Load
        /// The cursor, once the recording is read.
        var cursor: Cursor?
        /// Where to start, as asked.
        var offset: Duration
        var speed: Double
        var playing: Bool
    }

    private enum Load {
        case reading(done: Int, of: Int)
        case ready(RecordingTimeline)
        case failed(String)
    }

    private struct Cursor {
        var time: UnixTime
        var playing: Bool
        var speed: Double
        /// When `time` was last moved by playing (on ``clock``).
        var movedAt: Duration
    }

    /// The speeds a replay may run at.
    static let speeds: ClosedRange<Double> = 0.25...64

    /// A replay of a recording already read.
    convenience init(
        timeline: RecordingTimeline, at start: UnixTime? = nil, speed: Double = 1, playing: Bool = true,
        time: TimeSource = .system
    ) {
        self.init(
            file: "recording", offset: start.map { $0 - timeline.start } ?? .zero, speed: speed, playing: playing,
            time: time)
        state.withLock { Self.ready(timeline, &$0, now: clock()) }
    }

    /// A replay of `bytes` (the file at `file`), read on a thread of its own; `changed` is called
    /// when the reading has made progress or is done.
    convenience init(
        file: String, bytes: [UInt8], offset: Duration, speed: Double, playing: Bool,
        changed: @escaping @Sendable () -> Void
    ) {
        self.init(file: file, offset: offset, speed: speed, playing: playing, time: .system)
        let total = bytes.count
        state.withLock { $0.load = .reading(done: 0, of: total) }
        let thread = Thread { [self] in
            let load: Load
            do {
                let timeline = try RecordingTimeline(bytes: bytes, file: file) { done in
                    state.withLock { $0.load = .reading(done: done, of: total) }
                    changed()
                    return !abandoned.load(ordering: .relaxed)
                }
                load = .ready(timeline)
            } catch {
                load = .failed("\(error)")
            }
            let now = clock()
            state.withLock { state in
                if case .ready(let timeline) = load {
                    Self.ready(timeline, &state, now: now)
                } else {
                    state.load = load
                }
            }
            changed()
        }
        thread.name = "presencetop.replay-reader"
        thread.start()
    }

    private init(
        file: String, offset: Duration, speed: Double, playing: Bool,
        time: TimeSource
    ) {
        self.file = file
        self.clock = time.stopwatch()
        state = Mutex(State(load: .reading(done: 0, of: 0), offset: offset, speed: speed, playing: playing))
    }

    /// Stops a reading that is still going (the dashboard has quit).
    func abandon() { abandoned.store(true, ordering: .relaxed) }

    private static func ready(_ timeline: RecordingTimeline, _ state: inout State, now: Duration) {
        state.load = .ready(timeline)
        let time = min(max(timeline.start + state.offset, timeline.start), timeline.end)
        state.cursor = Cursor(time: time, playing: state.playing, speed: state.speed, movedAt: now)
    }

    /// Why the recording could not be read, once that is known.
    var failure: String? {
        state.withLock { if case .failed(let message) = $0.load { message } else { nil } }
    }

    /// The recording and its cursor moved on by the time played since it was last read; nil
    /// while it is being read.
    private func current() -> (RecordingTimeline, Cursor)? {
        let now = clock()
        return state.withLock { state in
            guard case .ready(let timeline) = state.load, var cursor = state.cursor else { return nil }
            Self.advance(&cursor, timeline, to: now)
            state.cursor = cursor
            return (timeline, cursor)
        }
    }

    private static func advance(_ cursor: inout Cursor, _ timeline: RecordingTimeline, to now: Duration) {
        defer { cursor.movedAt = now }
        guard cursor.playing else { return }
        let played = (now - cursor.movedAt) * cursor.speed
        cursor.time = min(timeline.end, cursor.time + played)
        if cursor.time >= timeline.end { cursor.playing = false }
    }

    func snapshot() -> WatchSnapshot {
        guard let (timeline, cursor) = current() else {
            return WatchSnapshot(takenAt: .epoch, server: "reading \(file)… \(progress)")
        }
        let (snapshot, events) = timeline.state(at: cursor.time, events: DashboardState.eventCapacity)
        self.events.withLock { $0 = events }
        return snapshot
    }

    /// How far the reading has come: `43 % of 120 MiB`.
    private var progress: String {
        state.withLock { state in
            guard case .reading(let done, let total) = state.load, total > 0 else { return "" }
            return "\(done * 100 / total) % of \(max(1, total >> 20)) MiB"
        }
    }

    /// Moves the cursor as a replay key asked; anything else a key would do to a session is not
    /// done (a replay only watches).
    func perform(_ effect: DashboardEffect) {
        guard case .replay(let step) = effect else { return }
        let now = clock()
        state.withLock { state in
            guard case .ready(let timeline) = state.load, var cursor = state.cursor else { return }
            Self.advance(&cursor, timeline, to: now)
            Self.move(&cursor, step, in: timeline)
            state.cursor = cursor
        }
    }

    private static func move(_ cursor: inout Cursor, _ step: ReplayStep, in timeline: RecordingTimeline) {
        switch step {
        case .playPause:
            if !cursor.playing, cursor.time >= timeline.end { cursor.time = timeline.start }
            cursor.playing.toggle()
        case .nextChange:
            cursor.time = timeline.nextChange(after: cursor.time) ?? timeline.end
            cursor.playing = false
        case .previousChange:
            cursor.time = timeline.previousChange(before: cursor.time) ?? timeline.start
            cursor.playing = false
        case .forward: cursor.time = min(timeline.end, cursor.time + .seconds(10))
        case .back: cursor.time = max(timeline.start, cursor.time - .seconds(10))
        case .start: cursor.time = timeline.start
        case .end:
            cursor.time = timeline.end
            cursor.playing = false
        case .faster: cursor.speed = min(speeds.upperBound, cursor.speed * 2)
        case .slower: cursor.speed = max(speeds.lowerBound, cursor.speed / 2)
        }
    }

    func replayed() -> (status: ReplayStatus, events: [WatchEvent])? {
        (status, events.withLock { $0 })
    }

    /// Where the cursor is, for the status line.
    var status: ReplayStatus {
        guard let (timeline, cursor) = current() else {
            return ReplayStatus(cursor: "REPLAY reading \(file)… \(progress)")
        }
        let time = Format.timeOfDay(cursor.time, zone: TimeZone(identifier: "UTC") ?? .current, milliseconds: true)
        let speed = cursor.speed == cursor.speed.rounded() ? "\(Int(cursor.speed))" : "\(cursor.speed)"
        return ReplayStatus(
            cursor: "REPLAY \(time) UTC \(cursor.playing ? "▶" : "❚❚") ×\(speed)  "
                + "\(Format.shortDuration(cursor.time - timeline.start)) of \(Format.shortDuration(timeline.end - timeline.start))"
        )
    }

    func cacheSummary() async -> CacheSummary? { nil }

    func onDisconnectSummary() async -> OnDisconnectSummary {
        OnDisconnectSummary(problem: "a replay has no server to ask")
    }

    func rulesSummary() async -> RulesSummary { RulesSummary(problem: "a replay has no server to ask") }
}
