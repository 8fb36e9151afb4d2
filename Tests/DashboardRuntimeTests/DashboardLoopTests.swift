import Dashboard
import DashboardRuntime
import Foundation
import Logging
import RTDBCore
import Synchronization
import Testing
import WatchModel

/// The dashboard's loop in memory: a scripted terminal that keeps every frame, a source that
/// records what it is asked, and time moved by the script, never by the wall clock.
@Suite struct DashboardLoopTests {
    /// A source that shows one snapshot, answers the views, and keeps every effect.
    final class RecordingSource: DashboardSource {
        let effects = Mutex<[DashboardEffect]>([])
        let replay: Mutex<(status: ReplayStatus, events: [WatchEvent])?>
        let cacheReads = Atomic<Int>(0)

        init(replaying: ReplayStatus? = nil) {
            replay = Mutex(replaying.map { ($0, []) })
        }

        func snapshot() -> WatchSnapshot {
            WatchSnapshot(takenAt: UnixTime(millisecondsSince1970: 1_700_000_000_000), server: "memory")
        }

        func cacheSummary() async -> CacheSummary? {
            cacheReads.add(1, ordering: .relaxed)
            return CacheSummary(
                totalBytes: 4_096, limitBytes: 10_485_760, bytesByPath: [.init(path: "/users", bytes: 4_096)],
                queries: [], nextPrune: [], pruneDue: false)
        }

        func onDisconnectSummary() async -> OnDisconnectSummary { OnDisconnectSummary(problem: "none here") }

        func rulesSummary() async -> RulesSummary { RulesSummary(problem: "none here") }

        func perform(_ effect: DashboardEffect) { effects.withLock { $0.append(effect) } }

        func replayed() -> (status: ReplayStatus, events: [WatchEvent])? { replay.withLock { $0 } }

        var failure: String? { nil }
    }

    static func loop(_ source: RecordingSource, _ terminal: MemoryTerminal, bindings: [KeyBinding] = KeyMap.bindings)
        throws -> DashboardLoop
    {
        DashboardLoop(
            source: source, inbox: ActionInbox(), wake: try WakePipe(), themeName: "default",
            catalog: ThemeCatalog(directories: []), bindings: bindings, logger: Logger(label: "test"),
            time: terminal.time, remembersTheme: false, makeTerminal: { _ in terminal })
    }

    @Test func keysBecomeEffectsAndQQuits() async throws {
        let source = RecordingSource()
        let terminal = MemoryTerminal(
            width: 120, height: 40,
            script: [.idle, .keys([.character("n"), .character("w")]), .keys([.character("q")])])
        let status = try await Self.loop(source, terminal).run(watchingSignals: false)
        #expect(status == 0)
        #expect(source.effects.withLock { $0 } == [.toggleNetwork, .queueWrites(1), .quit])
        #expect(terminal.isClosed, "the terminal is given back")
        #expect(terminal.screen.contains("memory"), "the snapshot's server is on screen:\n\(terminal.screen)")
    }

    @Test func aScriptThatRunsOutEndsAsCtrlC() async throws {
        let terminal = MemoryTerminal(width: 100, height: 30, script: [.idle])
        #expect(try await Self.loop(RecordingSource(), terminal).run(watchingSignals: false) == 130)
    }

    @Test func aFrameIsDrawnOnlyWhenTheStateChanged() async throws {
        let terminal = MemoryTerminal(
            width: 100, height: 30, script: [.idle, .idle, .idle, .keys([.tab]), .idle, .keys([.character("q")])])
        _ = try await Self.loop(RecordingSource(), terminal).run(watchingSignals: false)
        // The source's snapshot never changes: three ticks draw nothing new; Tab moves the focus,
        // one frame more.
        #expect(terminal.frames.count == 2)
        #expect(terminal.elapsed == .seconds(4), "the script moved time four ticks, nothing else did")
    }

    @Test func aResizeRedrawsAtTheNewSize() async throws {
        let terminal = MemoryTerminal(
            width: 100, height: 30, script: [.idle, .resize(width: 140, height: 45), .keys([.character("q")])])
        _ = try await Self.loop(RecordingSource(), terminal).run(watchingSignals: false)
        let last = try #require(terminal.frames.last)
        #expect(last.width == 140 && last.height == 45)
    }

    @Test func theCacheViewIsReadAsynchronouslyAndShown() async throws {
        let source = RecordingSource()
        let terminal = MemoryTerminal(
            width: 120, height: 40,
            script: [.keys([.character("C")]), .awaitWake, .idle, .keys([.character("q")])])
        _ = try await Self.loop(source, terminal).run(watchingSignals: false)
        #expect(source.cacheReads.load(ordering: .relaxed) >= 1)
        #expect(terminal.screen.contains("/users"), "the cache's paths are shown:\n\(terminal.screen)")
    }

    @Test func whileReplayingTheReplayKeysComeFirstAndAreNamedInTheFooter() async throws {
        let source = RecordingSource(replaying: ReplayStatus(cursor: "REPLAY 16:00:30.000 UTC ❚❚ ×1"))
        let terminal = MemoryTerminal(
            width: 160, height: 40,
            script: [.idle, .keys([.character(" "), .character("-"), .right, .home, .character("q")])])
        _ = try await Self.loop(source, terminal).run(watchingSignals: false)
        #expect(
            source.effects.withLock { $0 }
                == [.replay(.playPause), .replay(.slower), .replay(.nextChange), .replay(.start), .quit],
            "- slows the replay instead of moving the clock; Home goes to the start")
        #expect(terminal.screen.contains("REPLAY 16:00:30.000 UTC"))
        let footer = terminal.screen.split(separator: "\n").last.map(String.init) ?? ""
        #expect(footer.contains("play/pause") && footer.contains("speed"), "the footer: \(footer)")
        #expect(!footer.contains("network"), "a session's keys are not offered in a replay: \(footer)")
    }

    @Test func aReplayKeyMovedInTheSettingsIsTheOneThatActs() async throws {
        let bindings = try KeyMap.bindings(remapping: [(from: "replay -", to: "_")])
        let source = RecordingSource(replaying: ReplayStatus(cursor: "REPLAY"))
        let terminal = MemoryTerminal(
            width: 160, height: 40, script: [.keys([.character("_"), .character("-"), .character("q")])])
        _ = try await Self.loop(source, terminal, bindings: bindings).run(watchingSignals: false)
        #expect(
            source.effects.withLock { $0 } == [.replay(.slower), .shiftClock(by: .seconds(-1)), .quit],
            "_ slows the replay; - is the clock's again")
    }

    @Test func theHelpNamesTheReplayKeysWhileReplaying() async throws {
        func help(_ source: RecordingSource) async throws -> String {
            let terminal = MemoryTerminal(
                width: 120, height: 80, script: [.keys([.character("?")]), .idle, .keys([.character("q")])])
            _ = try await Self.loop(source, terminal).run(watchingSignals: false)
            return terminal.frames.map(\.text).first { $0.contains("Help: keys") } ?? ""
        }
        let replaying = try await help(RecordingSource(replaying: ReplayStatus(cursor: "REPLAY")))
        #expect(
            replaying.contains("replay: play or pause") && replaying.contains("replay: half as fast"), "\(replaying)")
        let live = try await help(RecordingSource())
        #expect(!live.contains("replay:") && live.contains("this help"), "\(live)")
    }
}
