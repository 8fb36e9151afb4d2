import Logging
import NIOCore
import NIOWebSocket
import RTDBCore
import ServiceLifecycle
import Synchronization

/// Notices WebSocket peers that have gone silent, for every session of a server at once.
///
/// Every `period` (half the configured timeout) it pings each session; a session whose peer sent
/// nothing at all between one ping and the next tick is closed, and its onDisconnect runs. The
/// ticks (a ``Ticker``) are on an injected clock, so a test moves time by hand instead of waiting
/// and racing a loaded machine. One monitor serves all sessions: a session costs a counter, not a
/// task and a timer of its own.
///
/// Only the server's own punctuality is held against a peer: a late tick and the one after it
/// ping again without judging, and every judgement first lets each event loop take in the bytes
/// that have already arrived.
final class HeartbeatMonitor: Service, Sendable {
    private struct Watched {
        let heartbeat: Heartbeat
        let channel: any Channel
        let sessionID: String
    }

    private let period: Duration
    private let timeout: Duration
    private let timers: any Clock<Duration>
    private let logger: Logger
    private let sessions = Mutex<[ObjectIdentifier: Watched]>([:])
    private let sweeps = Atomic<Int>(0)
    private let silenced = Atomic<Int>(0)
    /// Signalled after each tick is judged.
    private let judged: ChangeSignal

    /// Makes a monitor that closes sessions silent for `timeout`, ticking on `timers`.
    init(timeout: Duration, timers: any Clock<Duration>, logger: Logger, judged: ChangeSignal) {
        self.judged = judged
        self.timeout = timeout
        self.period = timeout / 2
        self.timers = timers
        self.logger = logger
    }

    /// Watches a session from now until ``unwatch(_:)``.
    func watch(_ heartbeat: Heartbeat, channel: any Channel, sessionID: String) {
        sessions.withLock {
            $0[ObjectIdentifier(heartbeat)] = Watched(heartbeat: heartbeat, channel: channel, sessionID: sessionID)
        }
    }

    /// Stops watching a session (it ended).
    func unwatch(_ heartbeat: Heartbeat) {
        sessions.withLock { _ = $0.removeValue(forKey: ObjectIdentifier(heartbeat)) }
    }

    /// How many ticks have been judged in full (a barrier for tests that move time by hand).
    var ticksJudged: Int { sweeps.load(ordering: .acquiring) }

    /// How many sessions ticks have judged silent (each then closes, its session ending soon).
    var sessionsJudgedSilent: Int { silenced.load(ordering: .acquiring) }

    /// Ticks until the server stops.
    func run() async {
        let ticker = Ticker(every: period, on: timers)
        await cancelWhenGracefulShutdown {
            // After a late tick (the server itself stalled: stopped, starved), the next one only
            // pings too, so that every peer has a full timeout from the resume to be heard (with
            // one period, a loaded machine's late pong ended a live session).
            var graceTicks = 0
            while let tick = await ticker.next() {
                let late = tick != .onTime
                await self.sweep(onTime: !late && graceTicks == 0)
                graceTicks = late ? 1 : max(0, graceTicks - 1)
                self.sweeps.add(1, ordering: .releasing)
                self.judged.signal()
            }
        }
    }

    private func sweep(onTime: Bool) async {
        let watched = sessions.withLock { Array($0.values) }
        guard !watched.isEmpty else { return }
        // A turn of every event loop first, so that a stall of the reads is not taken for a
        // peer's silence.
        var loops: [ObjectIdentifier: any EventLoop] = [:]
        for session in watched { loops[ObjectIdentifier(session.channel.eventLoop)] = session.channel.eventLoop }
        for loop in loops.values { try? await loop.submit {}.get() }
        for session in watched {
            switch session.heartbeat.judge(onTime: onTime) {
            case .ping:
                let ping = WebSocketFrame(fin: true, opcode: .ping, data: ByteBuffer(string: "hb"))
                session.channel.writeAndFlush(ping, promise: nil)
            case .silent:
                logger.info("session \(session.sessionID): nothing heard for \(timeout); closing it")
                silenced.add(1, ordering: .releasing)
                session.channel.close(promise: nil)
            }
        }
    }
}
