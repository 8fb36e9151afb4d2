import DequeModule

/// What travels one way through a link, each item due when the link's conditions say.
///
/// Pure bookkeeping (time is passed in, randomness injected), so the timing rules are tested
/// without sockets: an item leaves after the ones before it have gone onto the wire at the
/// link's bandwidth, arrives a latency plus a jitter later, and never overtakes an earlier one.
struct DeliveryQueue<Item> {
    /// One item on its way.
    struct Entry {
        var item: Item
        var size: Int
        /// When it arrives, ns on the monotonic clock.
        var dueAt: UInt64
    }

    private(set) var entries = Deque<Entry>()
    /// Bytes on their way.
    private(set) var heldBytes = 0
    private var lastDueAt: UInt64 = 0
    private var wireFreeAt: UInt64 = 0

    /// Whether nothing is on its way.
    var isEmpty: Bool { entries.isEmpty }

    /// When the first item arrives, if there is one.
    var nextDueAt: UInt64? { entries.first?.dueAt }

    /// Puts an item on the link at `now` and returns when it arrives.
    @discardableResult
    mutating func enqueue(
        _ item: Item, size: Int, now: UInt64, conditions: LinkConditions, random: inout some RandomNumberGenerator
    ) -> UInt64 {
        var sent = now
        if let bytesPerSecond = conditions.bytesPerSecond, size > 0 {
            let transmit = UInt64(size) * 1_000_000_000 / UInt64(bytesPerSecond)
            sent = max(now, wireFreeAt) + transmit
            wireFreeAt = sent
        }
        var delay = LinkConditions.nanoseconds(conditions.latency)
        let jitter = LinkConditions.nanoseconds(conditions.jitter)
        if jitter > 0 { delay += UInt64.random(in: 0...jitter, using: &random) }
        let dueAt = max(sent + delay, lastDueAt)
        lastDueAt = dueAt
        entries.append(Entry(item: item, size: size, dueAt: dueAt))
        heldBytes += size
        return dueAt
    }

    /// Takes the first item if it has arrived by `now`.
    mutating func takeFirstDue(now: UInt64) -> Entry? {
        guard let first = entries.first, first.dueAt <= now else { return nil }
        entries.removeFirst()
        heldBytes -= first.size
        return first
    }

    /// Takes the items that have arrived by `now`, in order.
    mutating func takeDue(now: UInt64) -> [Entry] {
        var due: [Entry] = []
        while let first = entries.first, first.dueAt <= now {
            entries.removeFirst()
            heldBytes -= first.size
            due.append(first)
        }
        return due
    }

    /// Forgets everything on its way (the connection was reset).
    mutating func removeAll() {
        entries.removeAll()
        heldBytes = 0
    }
}
