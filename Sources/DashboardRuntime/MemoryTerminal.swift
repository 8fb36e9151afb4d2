import Dashboard
import RTDBCore
import Synchronization

/// A terminal in memory, for tests: it keeps every frame presented and the themes set, plays a
/// script of input, and keeps the loop's clock, which moves only when the script says so.
///
/// Each time the loop waits for input it takes the script's next step. When the script runs
/// out it answers Ctrl-C, so a loop never outlives its test (exit status 130).
public final class MemoryTerminal: DashboardTerminal, Sendable {
    /// One step of the script.
    public enum Step: Sendable {
        /// These keys arrive at once.
        case keys([KeyEvent])
        /// Nothing arrives for this long (taken in as many waits as the loop makes meanwhile).
        case wait(Duration)
        /// The loop's whole wait passes with nothing (a tick, or the next frame).
        case idle
        /// The screen takes this size.
        case resize(width: Int, height: Int)
        /// Waits (for real, up to a minute) until something wakes the loop: an answer the source
        /// sent to the inbox. A barrier on that answer, not a sleep.
        case awaitWake
        /// For a live source (a real server, real time): the loop's waits pass as ticks, each
        /// after the source woke the loop or 50 ms, until the screen shows what `holds` looks for
        /// or `within` passes for real (then the script ends: a miss is in ``misses``).
        case until(String, within: Duration = .seconds(30), holds: @Sendable (String) -> Bool)
    }

    private struct State {
        var size: (width: Int, height: Int)
        var script: [Step]
        var frames: [CellGrid] = []
        var themes: [Theme] = []
        var isClosed = false
        /// When the current `until` step began waiting, for real.
        var untilStarted: ContinuousClock.Instant?
        var misses: [String] = []
    }

    private let state: Mutex<State>
    private let clock = ManualClock()
    /// The glyphs frames are drawn with.
    public let glyphs: Glyphs

    /// A `width` × `height` screen that will play `script`.
    public init(width: Int, height: Int, glyphs: Glyphs = .unicode, script: [Step]) {
        self.glyphs = glyphs
        state = Mutex(State(size: (width, height), script: script))
    }

    /// The loop's time: its clock moves only as the script lets time pass (its wall clock
    /// follows, from the Unix epoch).
    public var time: TimeSource {
        TimeSource(wall: { [clock] in .epoch + clock.elapsed }, clock: clock)
    }

    /// The time the script has let pass.
    public var elapsed: Duration { clock.elapsed }

    /// Every frame presented, oldest first.
    public var frames: [CellGrid] { state.withLock { $0.frames } }

    /// The last frame's text, one line per row.
    public var screen: String { state.withLock { $0.frames.last?.text ?? "" } }

    /// The themes set after the first, oldest first.
    public var themes: [Theme] { state.withLock { $0.themes } }

    /// The `until` steps that passed their time without the screen showing what they looked
    /// for: each with the screen it ended on.
    public var misses: [String] { state.withLock { $0.misses } }

    /// Whether the loop gave the terminal back.
    public var isClosed: Bool { state.withLock { $0.isClosed } }

    /// The size now.
    public var size: (width: Int, height: Int) { state.withLock { $0.size } }

    /// Keeps the theme.
    public func setTheme(_ theme: Theme) { state.withLock { $0.themes.append(theme) } }

    /// Keeps the frame.
    public func present(_ grid: CellGrid) { state.withLock { $0.frames.append(grid) } }

    /// Takes the script's next step.
    public func waitForInput(timeout: Duration?, wake: any LoopWake) -> (keys: [KeyEvent], resized: Bool) {
        var passed = Duration.zero
        let step = state.withLock { state -> Step? in
            guard !state.script.isEmpty else { return nil }
            if case .wait(let left) = state.script[0], let timeout, timeout < left {
                state.script[0] = .wait(left - timeout)
                passed = timeout
                return .idle
            }
            if case .until(let what, let within, let holds) = state.script[0] {
                let screen = state.frames.last?.text ?? ""
                let started = state.untilStarted ?? .now
                if holds(screen) || ContinuousClock.now - started > within {
                    if !holds(screen) {
                        state.misses.append("no \(what) within \(within); the screen:\n\(screen)")
                        state.script = []
                    } else {
                        state.script.removeFirst()
                    }
                    state.untilStarted = nil
                    return .idle
                }
                state.untilStarted = started
                passed = timeout ?? .zero
                return state.script[0]
            }
            let step = state.script.removeFirst()
            switch step {
            case .wait(let left): passed = left
            case .idle: passed = timeout ?? .zero
            case .resize(let width, let height): state.size = (width, height)
            case .keys, .awaitWake, .until: break
            }
            return step
        }
        clock.move(by: passed)
        switch step {
        case nil: return ([.interrupt], false)
        case .keys(let keys)?: return (keys, false)
        case .resize?: return ([], true)
        case .awaitWake?:
            _ = wake.wait(upTo: .seconds(60))
            return ([], false)
        case .until?:
            _ = wake.wait(upTo: .milliseconds(50))
            return ([], false)
        case .wait?, .idle?: return ([], false)
        }
    }

    /// Marks the terminal given back.
    public func close() { state.withLock { $0.isClosed = true } }
}
