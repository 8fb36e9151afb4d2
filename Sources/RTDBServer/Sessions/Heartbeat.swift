import Synchronization

/// Notices a WebSocket peer that has gone silent (docs/wire-protocol.md#heartbeat).
///
/// Every `period` (half the configured timeout) it pings; if nothing at all arrived between one
/// ping and the next tick, the peer is taken to be gone. Any bytes count as hearing from it: a
/// pong, a request, a keepalive. Its ticks (a ``Ticker``) are on an injected clock, the first one
/// period after the session opens, so a test moves time by hand instead of waiting and racing a
/// loaded machine.
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
    func runUntilSilent(ping: @Sendable () -> Void) async -> Bool {
        var readsAtPing: Int?
        while await ticker.next() {
            let reads = reads.load(ordering: .relaxed)
            if let readsAtPing, reads == readsAtPing { return true }
            readsAtPing = reads
            ping()
        }
        return false
    }
}
