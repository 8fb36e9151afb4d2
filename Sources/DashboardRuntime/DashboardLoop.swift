import Dashboard
import Dispatch
import Foundation
import Logging
import RTDBCore
import Synchronization
import UnixSignals
import WatchModel

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The dashboard's one loop: input, the source's answers and a low tick become actions; the
/// reducer changes the state (every change goes through it); the screen is redrawn only when the
/// state changed; effects go to the source (a live simulation, or a replay) without waiting.
///
/// It takes a terminal, a source and a clock, so a test runs it in memory and moves time by hand
/// (`MemoryTerminal`); `presencetop` runs it on a thread of its own with ncurses (it blocks in
/// `poll`, which must never hold one of Swift's few cooperative threads).
public final class DashboardLoop: Sendable {
    /// The idle tick: times on screen ("3m 12s ago") move once a second.
    public static let tick: Duration = .seconds(1)
    /// How often a view that asks the server (onDisconnect, Rules) asks again while it is open.
    public static let viewInterval: Duration = .seconds(2)
    /// Bursts of events are gathered for this long before the next snapshot and frame.
    public static let frame: Duration = .milliseconds(50)

    private let source: any DashboardSource
    private let inbox: ActionInbox
    private let wake: WakePipe
    private let themeName: String
    private let catalog: ThemeCatalog
    /// The key bindings, with the settings file's moves.
    private let bindings: [KeyBinding]
    private let logger: Logger
    /// Where what is shown is recorded (`--record`), if anywhere.
    private let recorder: (any SnapshotRecorder)?
    /// Time since the loop was made, on its ``TimeSource``'s clock (a test's moves by hand).
    private let now: @Sendable () -> Duration
    /// Makes the terminal, on the loop's thread, with the first theme.
    private let makeTerminal: @Sendable (Theme) -> any DashboardTerminal
    /// Called after each frame drawn (a test fault's trigger in debug builds).
    private let afterFrame: (@Sendable (DashboardState) -> Void)?
    /// Whether the theme `T` chose is written to the settings file.
    private let remembersTheme: Bool
    /// The signal that asked it to stop, or 0.
    private let quitSignal = Atomic<Int32>(0)
    /// Whether it stopped because the source failed.
    private let sourceFailed = Atomic<Bool>(false)

    /// Makes a loop; nothing runs until ``run(watchingSignals:)`` or ``runHere()``.
    public init(
        source: any DashboardSource, inbox: ActionInbox, wake: WakePipe, themeName: String, catalog: ThemeCatalog,
        bindings: [KeyBinding] = KeyMap.bindings, recorder: (any SnapshotRecorder)? = nil, logger: Logger,
        time: TimeSource = .system, remembersTheme: Bool = true,
        afterFrame: (@Sendable (DashboardState) -> Void)? = nil,
        makeTerminal: @escaping @Sendable (Theme) -> any DashboardTerminal
    ) {
        self.bindings = bindings
        self.recorder = recorder
        self.source = source
        self.inbox = inbox
        self.wake = wake
        self.themeName = themeName
        self.catalog = catalog
        self.logger = logger
        self.now = time.stopwatch()
        self.remembersTheme = remembersTheme
        self.afterFrame = afterFrame
        self.makeTerminal = makeTerminal
    }

    /// Runs on a thread of its own until `q`, Ctrl-C, SIGINT, SIGTERM or SIGHUP, and gives the
    /// terminal back.
    ///
    /// - Parameter watchingSignals: Whether SIGINT, SIGTERM and SIGHUP stop it (the process's
    ///   own dashboard); a test's loop leaves the process's signals alone.
    /// - Returns: The exit status, as a shell reports it: 0 for `q`, 130 for Ctrl-C or SIGINT,
    ///   128 + the signal's number for the others, 2 when the source failed (its `failure` says
    ///   why).
    public func run(watchingSignals: Bool = true) async -> Int32 {
        let signals = watchingSignals ? await watchSignals() : nil
        let status = await withCheckedContinuation { (done: CheckedContinuation<Int32, Never>) in
            let thread = Thread { [self] in done.resume(returning: runHere()) }
            thread.name = "presencetop.dashboard"
            thread.start()
        }
        signals?.cancel()
        return status
    }

    /// Runs on the calling thread until asked to quit, and returns the exit status.
    ///
    /// The status is as ``run(watchingSignals:)`` returns it. It blocks in the terminal's wait:
    /// never call it from a task.
    public func runHere() -> Int32 {
        let interrupted = loop()
        let signal = quitSignal.load(ordering: .relaxed)
        let status = signal != 0 ? 128 + signal : (interrupted ? 128 + SIGINT : 0)
        return sourceFailed.load(ordering: .relaxed) ? 2 : status
    }

    /// Asks the loop to stop on SIGINT, SIGTERM or SIGHUP, until the task it returns is cancelled.
    private func watchSignals() async -> Task<Void, Never> {
        let signals = await UnixSignalsSequence(trapping: .sigint, .sigterm, .sighup)
        return Task { [self] in
            for await signal in signals {
                quitSignal.store(signal.rawValue, ordering: .relaxed)
                wake.signal()
            }
        }
    }

    /// Draws and reacts until asked to quit; true when that was Ctrl-C.
    private func loop() -> Bool {
        let (theme, themeError) = catalog.load(themeName)
        let terminal = makeTerminal(theme)
        defer { terminal.close() }
        let renderer = DashboardRenderer(glyphs: terminal.glyphs)
        let size = terminal.size
        var state = DashboardState(width: size.width, height: size.height)
        state.preferences.bindings = bindings
        _ = DashboardReducer.reduce(&state, .themes(catalog.names, current: themeError == nil ? themeName : "default"))
        if let themeError { report(themeError, &state) }
        var drawn: DashboardState?
        var views = ViewReads()
        var lastSnapshot: Duration?
        var recordingFailureShown = false
        while !state.exit.isQuitting {
            let now = now()
            views.ask(for: state.views.shown, at: now, source: source, inbox: inbox, wake: wake)
            if lastSnapshot.map({ now - $0 >= Self.frame }) ?? true {
                if source.failure != nil {
                    sourceFailed.store(true, ordering: .relaxed)
                    break
                }
                let snapshot = source.snapshot()
                _ = DashboardReducer.reduce(&state, .snapshot(snapshot))
                if let (status, events) = source.replayed() {
                    _ = DashboardReducer.reduce(&state, .replayed(status, events: events))
                }
                recorder?.observe(snapshot)
                if let recorder, !recordingFailureShown, let failure = recorder.failure {
                    recordingFailureShown = true
                    _ = DashboardReducer.reduce(
                        &state,
                        .notice("recording to \(recorder.file) stopped: \(failure); it replays up to now", role: .bad))
                }
                lastSnapshot = now
            }
            if drawn != state {
                terminal.present(renderer.render(state))
                drawn = state.drawnMark
                afterFrame?(state)
            }
            // Sleep until the next tick, or sooner if events are waiting for their frame.
            let until = inbox.isEmpty ? Self.tick : Self.frame
            let timeout = until - (lastSnapshot.map { now - $0 } ?? .zero)
            let (keys, resized) = terminal.waitForInput(timeout: max(.milliseconds(1), timeout), wake: wake)
            wake.drain()
            if quitSignal.load(ordering: .relaxed) != 0 { break }
            if resized {
                let size = terminal.size
                _ = DashboardReducer.reduce(&state, .resize(width: size.width, height: size.height))
            }
            var effects: [DashboardEffect] = []
            for action in inbox.takeAll() { effects += DashboardReducer.reduce(&state, action) }
            for key in keys { effects += DashboardReducer.reduce(&state, .key(key)) }
            if !effects.isEmpty { logger.debug("keys \(keys) ask for \(effects)") }
            for effect in effects { apply(effect, terminal: terminal, &state) }
            if !keys.isEmpty { lastSnapshot = nil }
        }
        return state.exit.isInterrupted
    }

    /// Carries out an effect: a theme is the terminal's (loaded here, its outcome an action);
    /// everything else is the source's.
    private func apply(_ effect: DashboardEffect, terminal: any DashboardTerminal, _ state: inout DashboardState) {
        guard case .useTheme(let name) = effect else { return source.perform(effect) }
        let (theme, themeError) = catalog.load(name)
        terminal.setTheme(theme)
        _ = DashboardReducer.reduce(&state, .themes(catalog.names, current: themeError == nil ? name : "default"))
        if let themeError {
            report(themeError, &state)
        } else {
            _ = DashboardReducer.reduce(&state, .notice("theme \(name)", role: .muted))
            if remembersTheme { rememberTheme(name) }
        }
    }

    /// Keeps the theme `T` chose in the settings file, for the next run.
    private func rememberTheme(_ name: String) {
        let file = DashboardConfig.location()
        let text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
        do {
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try DashboardConfig.settingTheme(name, in: text).write(to: file, atomically: true, encoding: .utf8)
        } catch {
            logger.warning("could not remember the theme in \(file.path): \(error)")
        }
    }

    /// A theme that could not be used: on the status line now, and in full on stderr, which the
    /// terminal holds while the screen is ours and prints when the dashboard exits.
    private func report(_ error: ThemeError, _ state: inout DashboardState) {
        logger.warning("theme: \(error)")
        FileHandle.standardError.write(Data("presencetop: theme: \(error); used the built-in default\n".utf8))
        let firstLine = "\(error)".split(separator: "\n").first.map(String.init) ?? "\(error)"
        _ = DashboardReducer.reduce(&state, .notice("theme: \(firstLine); using the built-in default", role: .warn))
    }
}
