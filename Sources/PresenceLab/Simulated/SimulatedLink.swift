import LinkSim
import RTDBClient
import RTDBCore
import Synchronization

/// A device's link to a ``SimulatedServer``: the in-process counterpart of ``LinkProxy``, with
/// the same modes and conditions, on the clock of a ``TimeSource`` (a simulated run's, or a
/// test's `TestTime`).
///
/// Up, each frame arrives after the latency, a seeded jitter and its time on the wire at the
/// bandwidth, in order; in a blackhole, frames, opens and closes wait in the link until it is up
/// again; offline (and at ``stop()``), every connection is reset at both ends at once and new ones
/// are refused. The server side of each connection pings the client each heartbeat timeout (the
/// client's WebSocket answers by itself) and ends a session it has heard nothing from since the
/// last ping, as the real server's heartbeat does. Nothing in it reads the machine's
/// clock or a thread's timing: given the same calls at the same moments, it does the same.
public final class SimulatedLink: NetworkLink, Transport {
    let time: TimeSource
    let server: SimulatedServer
    let heartbeat: Duration
    /// The device's label, for the trace.
    let label: String
    /// Told what happens to the link's connections (the run's trace).
    let note: @Sendable (String) -> Void
    /// Signalled when a connection is asked for, reaches the server, or ends (a barrier for tests).
    public let changes = ChangeSignal()
    /// Time on the link's clock since it was made.
    private let elapsed: @Sendable () -> Duration
    private let state: Mutex<State>

    private struct State {
        var mode = LinkMode.up
        var conditions = LinkConditions.perfect
        var stopped = false
        var connections: [SimulatedConnection] = []
        var random: SeededRandom
        var asked = 0
        /// What it has carried and refused (its mode and conditions are the fields above).
        var carried = LinkStats(mode: .up, conditions: .perfect)
    }

    /// A link to `server` on `time`'s clock; its server end ends a session silent for
    /// `heartbeat`; jitter is drawn from `seed`; `label` names the device in what it tells `note`.
    public init(
        server: SimulatedServer, time: TimeSource, heartbeat: Duration = .seconds(60), seed: UInt64 = 1,
        label: String = "device", note: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.server = server
        self.time = time
        self.heartbeat = heartbeat
        self.label = label
        self.note = note
        elapsed = time.stopwatch()
        state = Mutex(State(random: SeededRandom(seed: seed)))
    }

    /// The database URL a client of a simulated link is given (the link ignores it; the
    /// namespace is the simulated server's one).
    public static let databaseURL = "http://simulated?ns=chaos"

    /// How many connections the device has asked for.
    public var connectionsAsked: Int { state.withLock { $0.asked } }

    /// Whether it carries anything, and how it fails when it does not.
    public var mode: LinkMode {
        get { state.withLock { $0.mode } }
        set {
            let (reset, released) = state.withLock { state -> ([SimulatedConnection], [SimulatedConnection]) in
                let was = state.mode
                state.mode = newValue
                state.connections.removeAll { $0.isOver }
                switch newValue {
                case .offline: return (state.connections, [])
                case .up where was == .blackhole: return ([], state.connections)
                default: return ([], [])
                }
            }
            for connection in reset { connection.reset("the network is down") }
            for connection in released { connection.release() }
            changes.signal()
        }
    }

    /// What it has carried, refused and holds, as a ``LinkProxy`` counts it.
    public var stats: LinkStats {
        state.withLock { state in
            var stats = state.carried
            (stats.mode, stats.conditions) = (state.mode, state.conditions)
            stats.openConnections = state.connections.count { !$0.isOver }
            return stats
        }
    }

    /// Counts a frame of `bytes` that reached the server (`up`) or the device.
    func carried(bytes: Int, up: Bool) {
        state.withLock { state in
            if up { state.carried.bytesUp += bytes } else { state.carried.bytesDown += bytes }
        }
    }

    /// Sets its latency, jitter and bandwidth.
    public func setConditions(_ conditions: LinkConditions) throws(LinkError) {
        state.withLock { $0.conditions = conditions }
    }

    /// Resets its connections and refuses new ones (the device's process died).
    public func stop() async {
        let connections = state.withLock { state -> [SimulatedConnection] in
            state.stopped = true
            return state.connections
        }
        for connection in connections { connection.reset("the device's process died") }
    }

    /// A connection to the server through the link.
    public func connect(to url: String, onEvent: @escaping @Sendable (TransportEvent) -> Void)
        -> any TransportConnection
    {
        let connection = SimulatedConnection(link: self, onEvent: onEvent)
        let refused = state.withLock { state -> Bool in
            state.asked += 1
            state.connections.removeAll { $0.isOver }
            guard !state.stopped, state.mode != .offline else {
                state.carried.refusedConnections += 1
                return true
            }
            state.carried.acceptedConnections += 1
            state.connections.append(connection)
            return false
        }
        if refused {
            connection.reset("connection refused")
        } else {
            connection.send(.open, toServer: true)
        }
        changes.signal()
        return connection
    }

    /// When a frame of `bytes` sent now arrives, after one that arrives at `previous`; nil in a
    /// blackhole (it waits).
    func arrival(ofBytes bytes: Int, after previous: Duration) -> Duration? {
        state.withLock { state -> Duration? in
            guard state.mode == .up else { return nil }
            let conditions = state.conditions
            var delay = conditions.latency
            if conditions.jitter > .zero {
                let range = conditions.jitter.wholeMilliseconds
                delay += .milliseconds(Int64.random(in: -range...range, using: &state.random))
            }
            var due = max(now + max(delay, .zero), previous)
            if let rate = conditions.bytesPerSecond, rate > 0 { due += .seconds(Double(bytes) / Double(rate)) }
            // Never before the one before: a lane hands its items over in the order sent.
            return due
        }
    }

    /// Whether the link carries anything now.
    var isUp: Bool { state.withLock { $0.mode == .up && !$0.stopped } }

    /// Time on the link's clock now, since the link was made.
    var now: Duration { elapsed() }
}
