/// The evaluations of one decision, counted without a lock and handed to ``RulesCoverage`` once.
///
/// Booleans and snapshots, most of what rules give, are counted in place per expression (no
/// allocation, no hashing); other values are listed. ``RulesCoverage`` keeps used tallies for
/// the next decisions.
///
/// `@unchecked Sendable`: a tally has one owner at a time. ``RulesCoverage`` hands it out and
/// takes it back under its lock, and between the two one decision, on one thread, uses it.
final class CoverageTally: @unchecked Sendable {
    /// For each character offset of the rules file, the slot of the expression there, or -1
    /// (copied from ``CoverageSlots``, so that a lookup is one load).
    private let slotByOffset: UnsafeMutableBufferPointer<Int32>
    /// Per slot, three counters side by side: `true`, `false`, a snapshot.
    private let counters: UnsafeMutableBufferPointer<Int>
    /// The slots counted in since the last reset, the first `touchedCount` of them.
    private let touchedSlots: UnsafeMutableBufferPointer<Int>
    private(set) var touchedCount = 0
    /// Other values, each with its slot.
    private(set) var others: [(slot: Int, value: CoverageValue)] = []

    init(slots: CoverageSlots) {
        slotByOffset = .allocate(capacity: slots.byOffset.count)
        _ = slotByOffset.initialize(from: slots.byOffset)
        counters = .allocate(capacity: 3 * slots.count)
        counters.initialize(repeating: 0)
        touchedSlots = .allocate(capacity: slots.count)
        touchedSlots.initialize(repeating: 0)
    }

    deinit {
        slotByOffset.deallocate()
        counters.deallocate()
        touchedSlots.deallocate()
    }

    /// The slots counted in, and their counters (`true`, `false`, snapshot).
    var touched: some Sequence<(slot: Int, trues: Int, falses: Int, snapshots: Int)> {
        touchedSlots.prefix(touchedCount).lazy.map { [counters] slot in
            (slot, counters[3 * slot], counters[3 * slot + 1], counters[3 * slot + 2])
        }
    }

    private func slot(of location: SourceLocation) -> Int? {
        CoverageSlots.slot(of: location, in: UnsafeBufferPointer(slotByOffset))
    }

    /// Notes that the expression at `location` gave `value`.
    func record(_ location: SourceLocation, _ value: RuleValue) {
        guard let slot = slot(of: location) else { return }
        let kind: Int
        switch value {
        case .bool(true): kind = 0
        case .bool(false): kind = 1
        case .snapshot: kind = 2
        default:
            others.append((slot, CoverageValue(value)))
            return
        }
        let base = 3 * slot
        if counters[base] == 0, counters[base + 1] == 0, counters[base + 2] == 0 {
            touchedSlots[touchedCount] = slot
            touchedCount += 1
        }
        counters[base + kind] += 1
    }

    /// Notes that the expression at `location` could not be evaluated.
    func recordError(_ location: SourceLocation, _ message: String) {
        guard let slot = slot(of: location) else { return }
        others.append((slot, .error(message)))
    }

    /// Forgets everything counted, keeping the room.
    func reset() {
        for slot in touchedSlots.prefix(touchedCount) {
            counters[3 * slot] = 0
            counters[3 * slot + 1] = 0
            counters[3 * slot + 2] = 0
        }
        touchedCount = 0
        others.removeAll(keepingCapacity: true)
    }
}
