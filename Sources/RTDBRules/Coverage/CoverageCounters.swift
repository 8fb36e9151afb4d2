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
        tally.record(slot, kind: kind)
    }

    /// The counters as a plain pointer, for the evaluations of one decision: counting through it
    /// costs one atomic add, with no retain of this object per evaluation (the decision's
    /// evaluator keeps the object alive meanwhile).
    var tally: Tally { Tally(counters: counters, slotCount: slotCount) }

    /// Where one decision counts: the counters' memory and how many slots it has.
    ///
    /// `@unchecked Sendable`: the memory is only touched through `Atomic`'s operations, and it
    /// lives as long as the ``CoverageCounters`` it came from, which its holder keeps.
    struct Tally: @unchecked Sendable {
        let counters: UnsafeMutablePointer<Atomic<Int>>
        let slotCount: Int

        /// Notes that the expression in `slot` gave `value`.
        func record(_ slot: Int, _ value: RuleValue) {
            record(slot, kind: value.coverageKind)
        }

        /// Notes that the expression in `slot` gave a value of `kind`.
        func record(_ slot: Int, kind: CoverageValue.Kind) {
            guard slot < slotCount else { return }
            counters[CoverageCounters.kinds * slot + kind.rawValue].wrappingAdd(1, ordering: .relaxed)
        }
    }

    /// The counts of `slot`, one per kind (by ``CoverageValue/Kind/rawValue``).
    func counts(slot: Int) -> [Int] {
        (0..<Self.kinds).map { counters[Self.kinds * slot + $0].load(ordering: .relaxed) }
    }
}
