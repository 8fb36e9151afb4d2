import Dispatch
import Logging
import RTDBCore
import Synchronization
import WatchModel

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `presencetop watch`: a live simulation (the dashboard's engine) without a screen, its
/// presence written as JSON Lines (``WatchLog``) and its figures served as metrics
/// (``WatchMetrics``).
///
/// Every event of the simulation wakes it; it then takes a snapshot and writes what changed
/// since the last, so a burst of changes is one comparison. It also wakes once a `tick`, for
/// what changes without an event (a feed going stale, the time of a summary).
public final class PresenceWatch: Sendable {
    /// Why a watch ended.
    public enum End: Sendable, Equatable {
        /// The task was cancelled (SIGTERM, say).
        case stopped
        /// The reader went (a closed pipe: `| head` had its lines).
        case readerWent
        /// The output refused the lines (a full disk), for this reason.
        case outputFailed(String)
    }

    /// The simulation watched.
    public let simulation: Simulation
    private let log: Box
    private let wakes: AsyncStream<Void>
    private let wake: AsyncStream<Void>.Continuation
    private let metrics = WatchMetrics()

    private init(simulation: Simulation, log: Box, wakes: AsyncStream<Void>, wake: AsyncStream<Void>.Continuation) {
        self.simulation = simulation
        self.log = log
        self.wakes = wakes
        self.wake = wake
    }

    /// Starts the simulation and returns once it is up.
    ///
    /// - Parameter changesOnly: Whether the users listed at first are left out.
    public static func start(
        _ options: SimulationOptions, changesOnly: Bool = false, logger: Logger
    ) async throws -> PresenceWatch {
        // One wake waiting is enough: the snapshot it leads to has every change before it.
        let (wakes, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let log = Box(WatchLog(changesOnly: changesOnly))
        let simulation = try await Simulation.start(options, logger: logger) { event in
            if case .acknowledged = event.kind { log.withLock { $0.note(event) } }
            wake.yield()
        }
        return PresenceWatch(simulation: simulation, log: log, wakes: wakes, wake: wake)
    }

    /// Writes lines until `write` cannot or the task is cancelled.
    ///
    /// Each wake's lines go to `write` together, one JSON object a line, each ending in a
    /// newline, on a thread of their own (a slow reader holds the watch back, not the engine).
    ///
    /// - Parameters:
    ///   - summaryEvery: How often a summary line is written (nil: only after the first list).
    ///   - tick: How often it wakes without an event.
    ///   - write: Writes text; nil when it did, else why the watch must end.
    /// - Returns: Why it ended.
    public func run(
        summaryEvery: Duration?, tick: Duration = .seconds(1),
        write: @escaping @Sendable (String) -> End?
    ) async -> End {
        let time = simulation.options.time
        let ticker = Task { [wake] in
            while (try? await time.sleep(for: tick)) != nil { wake.yield() }
        }
        defer { ticker.cancel() }
        let output = DispatchQueue(label: "presencetop.watch.output")
        var nextSummary = summaryEvery.map { simulation.options.time.now() + $0 }
        wake.yield()
        for await _ in wakes {
            let snapshot = simulation.snapshot()
            var (lines, more) = log.withLock { ($0.lines(for: snapshot), $0.isWritingFirstList) }
            // No summary in the middle of the first list's lines (the one after it is its own).
            if !more, let due = nextSummary, let every = summaryEvery, snapshot.takenAt >= due {
                lines.append(log.withLock { $0.summary(for: snapshot) })
                nextSummary = snapshot.takenAt + every
            }
            // A first list of a million users is written a piece at a time: the next piece at
            // the next wake, made now.
            if more { wake.yield() }
            guard !lines.isEmpty else { continue }
            let text = lines.map(\.jsonString).joined(separator: "\n") + "\n"
            let end: End? = await withCheckedContinuation { (done: CheckedContinuation<End?, Never>) in
                output.async { done.resume(returning: write(text)) }
            }
            if let end { return end }
        }
        return .stopped
    }

    /// The watched figures as Prometheus' text format, as of now.
    public func metricsText() -> String {
        let snapshot = simulation.snapshot()
        return metrics.text(log.withLock { $0.figures(for: snapshot) })
    }

    /// A writer of text to `descriptor` (standard output: 1) for
    /// ``run(summaryEvery:tick:write:)``: ``End/readerWent`` once the reader closed the
    /// pipe (`EPIPE`), ``End/outputFailed(_:)`` for anything else.
    public static func writer(to descriptor: Int32) -> @Sendable (String) -> End? {
        { text in
            guard let error = DescriptorWriter.write(Array(text.utf8), to: descriptor) else { return nil }
            return error == EPIPE ? .readerWent : .outputFailed(DescriptorWriter.reason(error))
        }
    }

    /// The log, shared with the simulation's event handler (which runs before the watch exists).
    private final class Box: Sendable {
        private let log: Mutex<WatchLog>
        init(_ log: WatchLog) { self.log = Mutex(log) }
        func withLock<Result>(_ body: (inout WatchLog) -> Result) -> Result { log.withLock { body(&$0) } }
    }
}
