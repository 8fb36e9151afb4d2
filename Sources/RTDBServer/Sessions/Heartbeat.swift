import RTDBCore
import Synchronization

/// Notices a WebSocket peer that has gone silent (docs/wire-protocol.md#heartbeat).
///
/// Every `period` (half the configured timeout) it pings; if nothing at all arrived between one
/// ping and the next tick, the peer is taken to be gone. Any bytes count as hearing from it: a
/// pong, a request, a keepalive. Its ticks (a ``Ticker``) are on an injected clock, the first one
/// period after the session opens, so a test moves time by hand instead of waiting and racing a
/// loaded machine.
///
/// Only the server's own punctuality is held against the peer: a late tick (the server was
/// stalled, and the peer's answer may be waiting unread) pings again without judging, and every
/// judgement first lets the connection take in the bytes that have already arrived.
final class Heartbeat: Sendable {
    private let reads = Atomic<Int>(0)
    private let ticker: Ticker

    init(timeout: Duration, timers: any Clock<Duration>) {
        ticker = Ticker(every: timeout / 2, on: timers)
    }

    /// Notes that bytes arrived (called for every read, before decoding).
    func heard() {
        reads.add(1, ordering: .relaxed)
    }

    /// Pings at every tick until the peer misses one; returns `true` then, or `false` if the task
    /// was cancelled first (the session ended on its own).
    ///
    /// - Parameter settle: Returns once the connection has read what already arrived (a turn of
    ///   its event loop), so a stall of the reads is not taken for the peer's silence.
    func runUntilSilent(settle: @Sendable () async -> Void, ping: @Sendable () -> Void) async -> Bool {
        var readsAtPing: Int?
        while let tick = await ticker.next() {
            await settle()
            let reads = reads.load(ordering: .relaxed)
            if tick == .onTime, let readsAtPing, reads == readsAtPing { return true }
            readsAtPing = reads
            ping()
        }
        return false
    }
}
