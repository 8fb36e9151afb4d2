import Synchronization

/// How often each expression of one set of rules was evaluated and what it gave, and the latest
/// requests they refused: the emulator's coverage report, and more.
///
/// Each ``SecurityRules`` value read from a file has its own, so new rules start from nothing.
public final class RulesCoverage: Sendable {
    /// One expression's evaluations.
    public struct Counts: Sendable, Hashable {
        /// How many times it was evaluated.
        public var evaluations = 0
        /// Evaluations whose value was not kept, beyond the distinct values kept.
        public var otherValues = 0
        /// Booleans and snapshots, most of what rules give, are counted without hashing.
        fileprivate var trueCount = 0
        fileprivate var falseCount = 0
        fileprivate var snapshotCount = 0
        fileprivate var others: [CoverageValue: Int] = [:]

        /// How many times it gave each value (at most ``RulesCoverage/distinctValues`` of them
        /// besides `true` and `false`).
        public var values: [CoverageValue: Int] {
            var values = others
            if trueCount > 0 { values[.value(.bool(true))] = trueCount }
            if falseCount > 0 { values[.value(.bool(false))] = falseCount }
            if snapshotCount > 0 { values[.snapshot] = snapshotCount }
            return values
        }
    }

    /// The distinct values kept per expression; the rest are counted in ``Counts/otherValues``.
    public static let distinctValues = 16
    /// The denials kept, the latest last.
    public static let deniedKept = 100

    private struct State {
        var counts: [Counts]
        /// Tallies handed back, for the next decisions.
        var spare: [CoverageTally] = []
        var denials: [RuleDenial] = []
        var deniedTotal = 0
    }

    private let state: Mutex<State>

    /// Starts with nothing counted for `slots` expressions.
    init(slots: Int) {
        state = Mutex(State(counts: Array(repeating: Counts(), count: slots)))
    }

    /// A tally for one decision: a spare one, or a new one.
    func tally(_ slots: CoverageSlots) -> CoverageTally {
        state.withLock { $0.spare.popLast() } ?? CoverageTally(slots: slots)
    }

    /// Adds one decision's evaluations, and keeps the tally for another.
    func add(_ tally: CoverageTally) {
        state.withLock { state in
            for (slot, trues, falses, snapshots) in tally.touched where state.counts.indices.contains(slot) {
                state.counts[slot].add(trues: trues, falses: falses, snapshots: snapshots)
            }
            for (slot, value) in tally.others where state.counts.indices.contains(slot) {
                state.counts[slot].add(value)
            }
            tally.reset()
            if state.spare.count < Self.spareTallies { state.spare.append(tally) }
        }
    }

    /// How many tallies are kept for reuse (about as many as decisions run at once).
    static let spareTallies = 16

    /// Notes a refused request (the server calls this where it refuses one, not for its own checks).
    public func recordDenial(_ denial: RuleDenial) {
        state.withLock { state in
            state.deniedTotal += 1
            state.denials.append(denial)
            if state.denials.count > Self.deniedKept {
                state.denials.removeFirst(state.denials.count - Self.deniedKept)
            }
        }
    }

    /// The counts, by slot (``CoverageSlots``).
    var counts: [Counts] { state.withLock { $0.counts } }

    /// The latest refusals, the latest last, and how many there were in all.
    public var denials: (latest: [RuleDenial], total: Int) { state.withLock { ($0.denials, $0.deniedTotal) } }
}

extension RulesCoverage.Counts {
    fileprivate mutating func add(trues: Int, falses: Int, snapshots: Int) {
        evaluations += trues + falses + snapshots
        trueCount += trues
        falseCount += falses
        snapshotCount += snapshots
    }

    fileprivate mutating func add(_ value: CoverageValue) {
        evaluations += 1
        switch value {
        case .value(.bool(true)): trueCount += 1
        case .value(.bool(false)): falseCount += 1
        case .snapshot: snapshotCount += 1
        default:
            if let count = others[value] {
                others[value] = count + 1
            } else if others.count < RulesCoverage.distinctValues {
                others[value] = 1
            } else {
                otherValues += 1
            }
        }
    }
}
