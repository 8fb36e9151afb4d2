import CursesBackend
import Dashboard
import Dispatch
import Foundation
import Logging
import Presence
import PresenceLab
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The dashboard's one loop, on a thread of its own (it blocks in `poll`, which must never hold
/// one of Swift's few cooperative threads): input, the source's events and a low tick become
/// actions; the reducer changes the state; the screen is redrawn only when the state changed;
/// effects go to the source (a live simulation, or a replay) without waiting for it.
final class DashboardLoop: Sendable {
    /// The idle tick: times on screen ("3m 12s ago") move once a second.
    static let tick: Duration = .seconds(1)
    /// How often the onDisconnect view asks the server again while it is open.
    static let onDisconnectInterval: Duration = .seconds(2)
    /// Bursts of events are gathered for this long before the next snapshot and frame.
    static let frame: Duration = .milliseconds(50)

    private let source: any DashboardSource
    private let inbox: ActionInbox
    private let wake: WakePipe
    private let themeName: String
    private let catalog: ThemeCatalog
    /// The key bindings, with the settings file's moves.
    private let bindings: [KeyBinding]
    private let logger: Logger
    /// Where what is shown is recorded (`--record`), if anywhere.
    private let recorder: SessionRecorder?
    /// The signal that asked it to stop, or 0.
    private let quitSignal = Atomic<Int32>(0)
    /// Whether it stopped because the source failed.
    private let sourceFailed = Atomic<Bool>(false)

    init(
        source: any DashboardSource, inbox: ActionInbox, wake: WakePipe, themeName: String, catalog: ThemeCatalog,
        bindings: [KeyBinding] = KeyMap.bindings, recorder: SessionRecorder? = nil, logger: Logger
    ) {
        self.bindings = bindings
        self.recorder = recorder
        self.source = source
        self.inbox = inbox
        self.wake = wake
        self.themeName = themeName
        self.catalog = catalog
        self.logger = logger
    }

    /// Runs until `q`, Ctrl-C, SIGINT, SIGTERM or SIGHUP, and gives the terminal back.
    ///
    /// - Returns: The exit status, as a shell reports it: 0 for `q`, 130 for Ctrl-C or SIGINT,
    ///   128 + the signal's number for the others, 2 when the source failed (its `failure` says
    ///   why).
    func run() async -> Int32 {
        let signals = watchSignals()
        let status = await withCheckedContinuation { (done: CheckedContinuation<Int32, Never>) in
            let thread = Thread { [self] in
                let interrupted = loop()
                let signal = quitSignal.load(ordering: .relaxed)
                let status = signal != 0 ? 128 + signal : (interrupted ? 128 + SIGINT : 0)
                done.resume(returning: sourceFailed.load(ordering: .relaxed) ? 2 : status)
            }
            thread.name = "presencetop.dashboard"
            thread.start()
        }
        for source in signals { source.cancel() }
        return status
    }

    private func watchSignals() -> [any DispatchSourceSignal] {
        [SIGINT, SIGTERM, SIGHUP].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [self] in
                quitSignal.store(number, ordering: .relaxed)
                wake.signal()
            }
            source.resume()
            return source
        }
    }

    /// Draws and reacts until asked to quit; true when that was Ctrl-C.
    private func loop() -> Bool {
        var (theme, themeError) = catalog.load(themeName)
        let terminal = CursesTerminal(theme: theme, environment: ProcessInfo.processInfo.environment)
        defer { terminal.close() }
        let renderer = DashboardRenderer(glyphs: terminal.glyphs)
        let size = terminal.size
        var state = DashboardState(width: size.width, height: size.height)
        state.bindings = bindings
        _ = DashboardReducer.reduce(&state, .themes(catalog.names, current: themeError == nil ? themeName : "default"))
        if let themeError { report(themeError, &state) }
        var drawn: DashboardState?
        let clock = ContinuousClock()
        var lastSnapshot: ContinuousClock.Instant?
        var recordingFailureShown = false
        var lastOverlayRead: ContinuousClock.Instant?
        var overlayRead: DashboardState.Overlay?
        while !state.isQuitting {
            let now = clock.now
            // An overlay's data is read only while it is open: at once, then now and then.
            if state.overlay != overlayRead {
                (overlayRead, lastOverlayRead) = (state.overlay, nil)
            }
            switch state.overlay {
            case .cache? where lastOverlayRead.map({ now - $0 >= Self.tick }) ?? true:
                _ = DashboardReducer.reduce(&state, .cache(source.cacheSummary()))
                lastOverlayRead = now
            case .onDisconnect? where lastOverlayRead.map({ now - $0 >= Self.onDisconnectInterval }) ?? true:
                // One request to the server, answered into the inbox.
                lastOverlayRead = now
                let (source, inbox, wake) = (source, inbox, wake)
                Task {
                    inbox.append(.onDisconnect(await source.onDisconnectSummary()))
                    wake.signal()
                }
            case .rules? where lastOverlayRead.map({ now - $0 >= Self.onDisconnectInterval }) ?? true:
                lastOverlayRead = now
                let (source, inbox, wake) = (source, inbox, wake)
                Task {
                    inbox.append(.rules(await source.rulesSummary()))
                    wake.signal()
                }
            default:
                break
            }
            if lastSnapshot.map({ now - $0 >= Self.frame }) ?? true {
                if source.failure != nil {
                    sourceFailed.store(true, ordering: .relaxed)
                    break
                }
                let snapshot = source.snapshot()
                _ = DashboardReducer.reduce(&state, .snapshot(snapshot))
                state.replay = source.status
                if let events = source.replayedEvents {
                    state.events = []
                    for event in events { _ = DashboardReducer.reduce(&state, .event(event)) }
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
                drawn = state
                #if DEBUG
                    if state.snapshot != nil { TestFault.requested?.trigger() }
                #endif
            }
            // Sleep until the next tick, or sooner if events are waiting for their frame.
            let pending = !inbox.isEmpty
            let until = pending ? Self.frame : Self.tick
            let timeout = until - (lastSnapshot.map { now - $0 } ?? .zero)
            let (keys, resized) = terminal.waitForInput(timeout: max(.milliseconds(1), timeout), wakeFD: wake.readEnd)
            wake.drain()
            if quitSignal.load(ordering: .relaxed) != 0 { break }
            if resized {
                let size = terminal.size
                _ = DashboardReducer.reduce(&state, .resize(width: size.width, height: size.height))
            }
            var effects: [DashboardEffect] = []
            for action in inbox.takeAll() { effects += DashboardReducer.reduce(&state, action) }
            for key in keys where !source.take(key) { effects += DashboardReducer.reduce(&state, .key(key)) }
            for effect in effects {
                if case .useTheme(let name) = effect {
                    (theme, themeError) = catalog.load(name)
                    terminal.setTheme(theme)
                    _ = DashboardReducer.reduce(
                        &state, .themes(catalog.names, current: themeError == nil ? name : "default"))
                    if let themeError {
                        report(themeError, &state)
                    } else {
                        _ = DashboardReducer.reduce(&state, .notice("theme \(name)", role: .muted))
                        rememberTheme(name)
                    }
                } else {
                    source.perform(effect)
                }
            }
            if !keys.isEmpty { lastSnapshot = nil }
        }
        return state.isInterrupted
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
