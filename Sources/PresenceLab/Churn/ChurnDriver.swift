import RTDBCore
import Synchronization

/// The seeded randomness of a simulation (`--seed`): the churn's steps, the task that applies
/// them every so often (`--churn`), and the picks of `d` and `x`.
final class ChurnDriver: Sendable {
    private struct State {
        var random: SeededRandom
        var generator: ChurnGenerator
        var task: Task<Void, Never>?
    }

    private let state: Mutex<State>

    /// A driver seeded with `seed` (the generator and the picks from their own streams).
    init(seed: UInt64) {
        state = Mutex(State(random: SeededRandom(seed: seed &+ 0x5EED), generator: ChurnGenerator(seed: seed)))
    }

    /// One of `elements`, picked with the seeded randomness.
    func pick<Element>(from elements: [Element]) -> Element? {
        guard !elements.isEmpty else { return nil }
        let index = state.withLock { Int.random(in: 0..<elements.count, using: &$0.random) }
        return elements[index]
    }

    /// The churn's next step for devices in `states`.
    func next(states: [ChurnGenerator.DeviceState]) -> ChurnStep {
        state.withLock { $0.generator.next(states: states) }
    }

    /// Runs `task` as the churn (the one before is cancelled).
    func run(_ task: Task<Void, Never>) {
        let previous = state.withLock { state in
            defer { state.task = task }
            return state.task
        }
        previous?.cancel()
    }

    /// Stops the churn; returns its task, if any, already cancelled.
    @discardableResult
    func stop() -> Task<Void, Never>? {
        state.withLock { state in
            defer { state.task = nil }
            state.task?.cancel()
            return state.task
        }
    }
}
