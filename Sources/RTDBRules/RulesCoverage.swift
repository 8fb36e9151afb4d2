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
        /// How many times it gave each value (at most ``RulesCoverage/distinctValues`` of them).
        public var values: [CoverageValue: Int] = [:]
        /// Evaluations whose value was not kept, beyond the distinct values kept.
        public var otherValues = 0
    }

    /// The distinct values kept per expression; the rest are counted in ``Counts/otherValues``.
    public static let distinctValues = 16
    /// The denials kept, the latest last.
    public static let deniedKept = 100

    private struct State {
        var counts: [SourceLocation: Counts] = [:]
        var denials: [RuleDenial] = []
        var deniedTotal = 0
    }

    private let state = Mutex(State())

    /// Starts with nothing counted.
    public init() {}

    /// Adds one decision's evaluations.
    func add(_ tally: CoverageTally) {
        guard !tally.evaluations.isEmpty else { return }
        state.withLock { state in
            for (location, value) in tally.evaluations {
                state.counts[location, default: Counts()].add(value)
            }
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

    /// The counts by the place of each expression.
    public var counts: [SourceLocation: Counts] { state.withLock { $0.counts } }

    /// The latest refusals, the latest last, and how many there were in all.
    public var denials: (latest: [RuleDenial], total: Int) { state.withLock { ($0.denials, $0.deniedTotal) } }
}

extension RulesCoverage.Counts {
    fileprivate mutating func add(_ value: CoverageValue) {
        evaluations += 1
        if let count = values[value] {
            values[value] = count + 1
        } else if values.count < RulesCoverage.distinctValues {
            values[value] = 1
        } else {
            otherValues += 1
        }
    }
}
