import LinkSim
import RTDBClient
import RTDBCore
import Synchronization

/// A device's link to the simulated server: the in-process counterpart of ``LinkProxy``, with
/// the same modes and conditions, on the run's clock.
///
/// Up, each frame arrives after the latency, a seeded jitter and its time on the wire at the
/// bandwidth, in order; in a blackhole, frames, opens and closes wait in the link until it is up
/// again; offline (and at ``stop()``), every connection is reset at both ends at once and new ones
/// are refused. The server side of each connection ends a session it has not heard from for a
/// heartbeat timeout, as the real server's heartbeat does.
final class SimulatedLink: ChaosLink, Transport {
    let clock: SimulatedClock
    let server: SimulatedServer
    let heartbeat: Duration
    /// The device's label, for the trace.
    let label: String
    /// Told what happens to the link's connections (the run's trace).
    let note: @Sendable (String) -> Void
    private let state: Mutex<State>

    private struct State {
        var mode = LinkMode.up
        var conditions = LinkConditions.perfect
        var stopped = false
        var connections: [SimulatedConnection] = []
        var random: SeededRandom
    }

    init(
        server: SimulatedServer, clock: SimulatedClock, heartbeat: Duration, seed: UInt64, label: String,
        note: @escaping @Sendable (String) -> Void
    ) {
        self.server = server
        self.clock = clock
        self.heartbeat = heartbeat
        self.label = label
        self.note = note
        state = Mutex(State(random: SeededRandom(seed: seed)))
    }

    var mode: LinkMode {
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
        }
    }

    func setConditions(_ conditions: LinkConditions) throws(LinkError) {
        state.withLock { $0.conditions = conditions }
    }

    func stop() async {
        let connections = state.withLock { state -> [SimulatedConnection] in
            state.stopped = true
            return state.connections
        }
        for connection in connections { connection.reset("the device's process died") }
    }

    func connect(to url: String, onEvent: @escaping @Sendable (TransportEvent) -> Void) -> any TransportConnection {
        let connection = SimulatedConnection(link: self, onEvent: onEvent)
        let refused = state.withLock { state -> Bool in
            state.connections.removeAll { $0.isOver }
            guard !state.stopped, state.mode != .offline else { return true }
            state.connections.append(connection)
            return false
        }
        if refused {
            connection.reset("connection refused")
        } else {
            connection.send(.open, toServer: true)
        }
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
            // Strictly after the one before, so that the order on the clock is the order sent.
            return max(due, previous + .nanoseconds(1))
        }
    }

    /// Whether the link carries anything now.
    var isUp: Bool { state.withLock { $0.mode == .up && !$0.stopped } }

    /// The run's time now.
    var now: Duration { clock.elapsed }
}
