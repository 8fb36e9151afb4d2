import DequeModule
import RTDBCore
import RTDBRules

/// The idempotency keys of recent writes (our protocol extension): a write that arrives again
/// under a key already seen was applied before, so it is acknowledged without being applied twice.
///
/// Keys are scoped to who wrote (``scoped(_:by:)``): one user reusing another's key, by chance or
/// on purpose, has no effect on the other's writes. Keys compare by code units. Only writes that
/// succeeded are remembered; a rejected write sent again is judged again. The newest ``capacity``
/// keys are kept, in memory and on disk.
struct AppliedKeys: Sendable {
    /// How many keys are remembered.
    static let capacity = 500_000

    private var sequences: [CodeUnitString: UInt64] = [:]
    private var order = Deque<CodeUnitString>()

    /// The key as stored: the client's key prefixed with who sent it (admin, signed out, or the
    /// uid with its length, so that no uid and key can be taken for another pair).
    static func scoped(_ key: String, by auth: RuleAuth) -> String {
        switch auth {
        case .admin: return "admin|" + key
        case .anonymous: return "anonymous|" + key
        case .user(let variable):
            let uid = variable["uid"]?.stringValue ?? ""
            return "uid:\(uid.utf8.count):\(uid)|" + key
        }
    }

    /// Whether a write with this (scoped) key has been applied.
    func contains(_ key: String) -> Bool { sequences[CodeUnitString(key)] != nil }

    /// The sequence number of the write applied under this (scoped) key, if one was.
    func sequence(of key: String) -> UInt64? { sequences[CodeUnitString(key)] }

    /// Forgets the keys of writes after `sequence` (they were refused, not stored).
    mutating func forget(after sequence: UInt64) {
        while let newest = order.last, let applied = sequences[newest], applied > sequence {
            order.removeLast()
            sequences[newest] = nil
        }
    }

    /// Remembers a scoped key, forgetting the oldest beyond the capacity.
    mutating func insert(_ key: String, sequence: UInt64) {
        let key = CodeUnitString(key)
        guard sequences.updateValue(sequence, forKey: key) == nil else { return }
        order.append(key)
        while order.count > Self.capacity, let oldest = order.popFirst() { sequences[oldest] = nil }
    }

    /// How many keys are remembered.
    var count: Int { order.count }
}
