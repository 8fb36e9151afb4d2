import DequeModule

/// The idempotency keys of recent writes (our protocol extension): a write that arrives again
/// under a key already seen was applied before, so it is acknowledged without being applied twice.
///
/// Only writes that succeeded are remembered; a rejected write sent again is judged again. The
/// newest ``capacity`` keys are kept, in memory and on disk.
struct AppliedKeys: Sendable {
    /// How many keys are remembered.
    static let capacity = 500_000

    private var sequences: [String: UInt64] = [:]
    private var order = Deque<String>()

    /// Whether a write with this key has been applied.
    func contains(_ key: String) -> Bool { sequences[key] != nil }

    /// Remembers a key, forgetting the oldest beyond the capacity.
    mutating func insert(_ key: String, sequence: UInt64) {
        guard sequences.updateValue(sequence, forKey: key) == nil else { return }
        order.append(key)
        while order.count > Self.capacity, let oldest = order.popFirst() { sequences[oldest] = nil }
    }

    /// How many keys are remembered.
    var count: Int { order.count }
}
