import RTDBCore
import Synchronization

/// What has arrived on the connection, for readers on other threads (the status snapshot reads
/// it; publishing every frame to observers would cost more than it tells).
final class ArrivalGauges: Sendable {
    /// When the server was last heard, in ms since the epoch.
    let lastHeard = Atomic<Int64>(0)
    /// A fragmented message's progress: bytes and the data's entries so far, packed as
    /// `bytes << 32 | entries` (0: none).
    let arrivingBytes = Atomic<Int>(0)
    /// The same message's fragments so far and announced, packed as `so far << 32 | announced`.
    let arrivingFragments = Atomic<Int>(0)

    /// Marks the server heard at `time`.
    func heard(at time: UnixTime) { lastHeard.store(time.millisecondsSince1970, ordering: .relaxed) }

    /// Shows the assembler's progress on a fragmented message (nil: none under way).
    func show(_ progress: (bytes: Int, fragments: Int, of: Int, entries: Int)?) {
        arrivingBytes.store(progress.map { $0.bytes << 32 | min($0.entries, 0xFFFF_FFFF) } ?? 0, ordering: .relaxed)
        arrivingFragments.store(progress.map { $0.fragments << 32 | $0.of } ?? 0, ordering: .relaxed)
    }
}

extension ArrivalGauges {
    /// `status` with when the server was last heard and the fragmented message under way, as
    /// they stand now.
    func annotating(_ status: ConnectionStatus) -> ConnectionStatus {
        var status = status
        let heard = lastHeard.load(ordering: .relaxed)
        status.lastHeardAt = heard > 0 ? UnixTime(millisecondsSince1970: heard) : nil
        let fragments = arrivingFragments.load(ordering: .relaxed)
        if fragments != 0 {
            let size = arrivingBytes.load(ordering: .relaxed)
            status.arriving = ConnectionStatus.ArrivingMessage(
                bytes: size >> 32, fragments: fragments >> 32, of: fragments & 0xFFFF_FFFF, entries: size & 0xFFFF_FFFF)
        }
        return status
    }
}
