import Synchronization

/// Every expression's evaluations, counted by the kind of value they gave (``CoverageValue/Kind``)
/// in counters that all decisions share: one relaxed atomic add per evaluation, no lock, no
/// per-decision tally to merge.
///
/// `@unchecked Sendable`: the counters live in memory this object owns and are read and written
/// only through `Atomic`'s operations; the slot table is written once, before the object is shared.
final class CoverageCounters: @unchecked Sendable {
    /// The counters of one slot, side by side, one per kind.
    static let kinds = CoverageValue.Kind.allCases.count

    private let counters: UnsafeMutablePointer<Atomic<Int>>
    /// How many expressions are counted.
    let slotCount: Int

    /// Counters at zero for `slotCount` expressions (``CoverageSlots``).
    init(slotCount: Int) {
        self.slotCount = slotCount
        counters = .allocate(capacity: Self.kinds * slotCount)
        for index in 0..<Self.kinds * slotCount { (counters + index).initialize(to: Atomic(0)) }
    }

    deinit {
        counters.deinitialize(count: Self.kinds * slotCount)
        counters.deallocate()
    }

    /// Notes that the expression in `slot` gave `value`.
    func record(_ slot: Int, _ value: RuleValue) {
        record(slot, kind: value.coverageKind)
    }

    /// Notes that the expression in `slot` gave a value of `kind` (a snapshot not made, say).
    func record(_ slot: Int, kind: CoverageValue.Kind) {
        guard slot < slotCount else { return }
        counters[Self.kinds * slot + kind.rawValue].wrappingAdd(1, ordering: .relaxed)
    }

    /// The counts of `slot`, one per kind (by ``CoverageValue/Kind/rawValue``).
    func counts(slot: Int) -> [Int] {
        (0..<Self.kinds).map { counters[Self.kinds * slot + $0].load(ordering: .relaxed) }
    }
}
