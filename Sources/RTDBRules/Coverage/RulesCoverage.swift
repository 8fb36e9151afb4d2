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
        /// Every value but an error is counted by its kind, without hashing (from
        /// ``CoverageCounters``, when the counts are read).
        fileprivate var kindCounts = Array(repeating: 0, count: CoverageValue.Kind.allCases.count)
        /// Errors, by message.
        fileprivate var errors: [CoverageValue: Int] = [:]

        /// How many times it gave each value (at most ``RulesCoverage/distinctValues`` errors
        /// besides the kinds of value).
        public var values: [CoverageValue: Int] {
            var values = errors
            for kind in CoverageValue.Kind.allCases where kindCounts[kind.rawValue] > 0 {
                values[kind.value] = kindCounts[kind.rawValue]
            }
            return values
        }
    }

    /// The distinct errors kept per expression; the rest are counted in ``Counts/otherValues``.
    public static let distinctValues = 16
    /// The denials kept, the latest last.
    public static let deniedKept = 100

    private struct State {
        /// Per slot, the errors (the other values are in ``RulesCoverage/counters``).
        var errors: [Counts]
        var denials: [RuleDenial] = []
        var deniedTotal = 0
    }

    /// The evaluations that gave a value, by kind.
    let counters: CoverageCounters
    private let state: Mutex<State>

    /// Starts with nothing counted for the expressions `slots` numbers.
    init(slots: CoverageSlots) {
        counters = CoverageCounters(slotCount: slots.count)
        state = Mutex(State(errors: Array(repeating: Counts(), count: slots.count)))
    }

    /// Notes that the expression in `slot` could not be evaluated, and why.
    func recordError(_ slot: Int, _ message: String) {
        state.withLock { state in
            guard state.errors.indices.contains(slot) else { return }
            state.errors[slot].add(.error(message))
        }
    }

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
    var counts: [Counts] {
        var counts = state.withLock { $0.errors }
        for slot in counts.indices {
            counts[slot].add(counters.counts(slot: slot))
        }
        return counts
    }

    /// The latest refusals, the latest last, and how many there were in all.
    public var denials: (latest: [RuleDenial], total: Int) { state.withLock { ($0.denials, $0.deniedTotal) } }
}

extension RulesCoverage.Counts {
    fileprivate mutating func add(_ counts: [Int]) {
        for (kind, count) in counts.enumerated() where count > 0 {
            evaluations += count
            kindCounts[kind] += count
        }
    }

    fileprivate mutating func add(_ error: CoverageValue) {
        evaluations += 1
        if let count = errors[error] {
            errors[error] = count + 1
        } else if errors.count < RulesCoverage.distinctValues {
            errors[error] = 1
        } else {
            otherValues += 1
        }
    }
}
