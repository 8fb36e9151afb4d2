import Synchronization

/// What a session's heartbeat knows: whether its peer was heard from since the last ping
/// (docs/wire-protocol.md#heartbeat).
///
/// Any bytes count as hearing from it: a pong, a request, a keepalive. The ``HeartbeatMonitor``
/// consults it at each of its ticks.
final class Heartbeat: Sendable {
    /// What a tick decides for a session.
    enum Verdict: Equatable {
        /// Ping it (again).
        case ping
        /// Nothing arrived between the last ping and an on-time tick: the peer is gone.
        case silent
    }

    private static let neverPinged = -1
    private let reads = Atomic<Int>(0)
    private let readsAtPing = Atomic<Int>(Heartbeat.neverPinged)
    /// Whether the server itself has stopped reading this peer (its request window is full): the
    /// peer's bytes wait unread, and silence then says nothing about the peer.
    private let readsHeld = Atomic<Bool>(false)
    private let judgedSilent = Atomic<Bool>(false)

    /// Notes that bytes arrived (called for every read, before decoding).
    func heard() {
        reads.add(1, ordering: .relaxed)
    }

    /// Judges the peer at a tick.
    ///
    /// Silent if the tick is on time and nothing arrived since the last ping. A late tick (the server itself was stalled, and the answer may be waiting unread)
    /// only pings again.
    func judge(onTime: Bool) -> Verdict {
        let reads = reads.load(ordering: .relaxed)
        let atPing = readsAtPing.exchange(reads, ordering: .relaxed)
        let held = readsHeld.load(ordering: .relaxed)
        let silent = onTime && !held && atPing == reads
        if silent { judgedSilent.store(true, ordering: .relaxed) }
        return silent ? .silent : .ping
    }

    /// Whether a tick judged the peer silent (its session then ends for it).
    var wasJudgedSilent: Bool { judgedSilent.load(ordering: .relaxed) }

    /// Notes that the server stops reading this peer until ``resumeReads()`` (and that it
    /// resumed: what it reads then counts as hearing).
    func holdReads() {
        readsHeld.store(true, ordering: .relaxed)
    }

    /// Notes that the server reads this peer again.
    func resumeReads() {
        readsHeld.store(false, ordering: .relaxed)
        heard()
    }
}
