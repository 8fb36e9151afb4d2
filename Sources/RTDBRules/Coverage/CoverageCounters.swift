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

    /// For each character offset of the rules file, the slot of the expression there, or -1
    /// (copied from ``CoverageSlots``, so that a lookup is one load).
    private let slotByOffset: UnsafeMutableBufferPointer<Int32>
    private let counters: UnsafeMutablePointer<Atomic<Int>>
    /// How many expressions are counted.
    let slotCount: Int

    /// Counters at zero for the expressions `slots` numbers.
    init(slots: CoverageSlots) {
        slotByOffset = .allocate(capacity: slots.byOffset.count)
        _ = slotByOffset.initialize(from: slots.byOffset)
        slotCount = slots.count
        counters = .allocate(capacity: Self.kinds * slots.count)
        for index in 0..<Self.kinds * slots.count { (counters + index).initialize(to: Atomic(0)) }
    }

    deinit {
        counters.deinitialize(count: Self.kinds * slotCount)
        counters.deallocate()
        slotByOffset.deallocate()
    }

    /// The slot of the expression at `location`, or nil.
    func slot(of location: SourceLocation) -> Int? {
        CoverageSlots.slot(of: location, in: UnsafeBufferPointer(slotByOffset))
    }

    /// Notes that the expression at `location` gave `value`.
    func record(_ location: SourceLocation, _ value: RuleValue) {
        guard let slot = slot(of: location) else { return }
        counters[Self.kinds * slot + CoverageValue.Kind(value).rawValue].wrappingAdd(1, ordering: .relaxed)
    }

    /// The counts of `slot`, one per kind (by ``CoverageValue/Kind/rawValue``).
    func counts(slot: Int) -> [Int] {
        (0..<Self.kinds).map { counters[Self.kinds * slot + $0].load(ordering: .relaxed) }
    }
}
