import Dashboard
import Foundation
import PresenceLab
import RTDBCore
import Synchronization

/// A recording played back with a time cursor: the panes show the state at the cursor, which
/// moves at the chosen speed while playing.
///
/// Its keys (taken before the dashboard's): Space plays or pauses, ←/→ step to the previous or
/// next change, `[`/`]` move 10 s, Home/End go to the start or the end, `-`/`+` halve or double
/// the speed.
final class ReplaySource: DashboardSource {
    let timeline: RecordingTimeline
    private let clock: @Sendable () -> ContinuousClock.Instant
    private let state: Mutex<Cursor>
    private let events = Mutex<[SimulationEvent]>([])

    private struct Cursor {
        var time: UnixTime
        var playing: Bool
        var speed: Double
        /// When `time` was last moved by playing.
        var movedAt: ContinuousClock.Instant
    }

    /// The speeds a replay may run at.
    static let speeds: ClosedRange<Double> = 0.25...64

    init(
        timeline: RecordingTimeline, at start: UnixTime? = nil, speed: Double = 1, playing: Bool = true,
        clock: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now }
    ) {
        self.timeline = timeline
        self.clock = clock
        let time = min(max(start ?? timeline.start, timeline.start), timeline.end)
        state = Mutex(Cursor(time: time, playing: playing, speed: speed, movedAt: clock()))
    }

    /// The cursor, moved on by the time played since it was last read.
    var time: UnixTime {
        let now = clock()
        return state.withLock { cursor in
            advance(&cursor, to: now)
            return cursor.time
        }
    }

    private func advance(_ cursor: inout Cursor, to now: ContinuousClock.Instant) {
        defer { cursor.movedAt = now }
        guard cursor.playing else { return }
        let played = (now - cursor.movedAt) * cursor.speed
        cursor.time = min(timeline.end, cursor.time + played)
        if cursor.time >= timeline.end { cursor.playing = false }
    }

    func snapshot() -> SimulationSnapshot {
        let (snapshot, events) = timeline.state(at: time, events: DashboardState.eventCapacity)
        self.events.withLock { $0 = events }
        return snapshot
    }

    var replayedEvents: [SimulationEvent]? { events.withLock { $0 } }

    func take(_ key: KeyEvent) -> Bool {
        let now = clock()
        return state.withLock { cursor in
            advance(&cursor, to: now)
            switch key {
            case .character(" "):
                if !cursor.playing, cursor.time >= timeline.end { cursor.time = timeline.start }
                cursor.playing.toggle()
            case .right:
                cursor.time = timeline.changeTimes.first { $0 > cursor.time } ?? timeline.end
                cursor.playing = false
            case .left:
                cursor.time = timeline.changeTimes.last { $0 < cursor.time } ?? timeline.start
                cursor.playing = false
            case .character("]"): cursor.time = min(timeline.end, cursor.time + .seconds(10))
            case .character("["): cursor.time = max(timeline.start, cursor.time - .seconds(10))
            case .home: cursor.time = timeline.start
            case .end:
                cursor.time = timeline.end
                cursor.playing = false
            case .character("+"), .character("="): cursor.speed = min(Self.speeds.upperBound, cursor.speed * 2)
            case .character("-"): cursor.speed = max(Self.speeds.lowerBound, cursor.speed / 2)
            default: return false
            }
            return true
        }
    }

    var status: ReplayStatus? {
        let now = clock()
        let cursor = state.withLock { cursor in
            advance(&cursor, to: now)
            return cursor
        }
        let time = Format.timeOfDay(cursor.time, zone: TimeZone(identifier: "UTC") ?? .current, milliseconds: true)
        let speed = cursor.speed == cursor.speed.rounded() ? "\(Int(cursor.speed))" : "\(cursor.speed)"
        return ReplayStatus(
            cursor: "REPLAY \(time) UTC \(cursor.playing ? "▶" : "❚❚") ×\(speed)  "
                + "\(Format.shortDuration(cursor.time - timeline.start)) of \(Format.shortDuration(timeline.end - timeline.start))",
            keys: [
                .init("Space", cursor.playing ? "pause" : "play"), .init("←/→", "change"), .init("[/]", "10 s"),
                .init("Home/End", "ends"), .init("-/+", "speed"),
            ])
    }

    func cacheSummary() -> CacheSummary? { nil }

    func onDisconnectSummary() async -> OnDisconnectSummary {
        OnDisconnectSummary(problem: "a replay has no server to ask")
    }

    func rulesSummary() async -> RulesSummary { RulesSummary(problem: "a replay has no server to ask") }

    /// A replay only watches: what a key would do to a session is not done.
    func perform(_ effect: DashboardEffect) {}
}
