import LinkSim
import RTDBCore
import Synchronization

/// The seeded randomness of a simulation (`--seed`) and what it does to the population: the
/// churn's steps, the task that applies them every so often (`--churn`), and the devices `d`
/// adds and `x` crashes; each told as an event.
final class ChurnDriver: Sendable {
    private struct State {
        var random: SeededRandom
        var generator: ChurnGenerator
        var task: Task<Void, Never>?
    }

    private let state: Mutex<State>
    private let population: Population

    /// A driver of `population` seeded with `seed` (the generator and the picks from their own
    /// streams).
    init(seed: UInt64, population: Population) {
        state = Mutex(State(random: SeededRandom(seed: seed &+ 0x5EED), generator: ChurnGenerator(seed: seed)))
        self.population = population
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

    /// Adds a device for a user picked at random, and tells it.
    func addDevice(tell: (WatchEvent.Kind) -> Void) async {
        let users = Set(population.devices.map(\.user)).sorted()
        guard !users.isEmpty else {
            tell(.notice("no simulated users to add a device to (--users 0)"))
            return
        }
        guard let user = pick(from: users) else { return }
        do {
            let device = try await population.addDevice(forUser: user)
            tell(.deviceAdded(device.label))
        } catch {
            tell(.notice("adding a device for \(user) failed: \(error)"))
        }
    }

    /// Crashes a simulated device picked at random (no clean close): the server runs its
    /// onDisconnect operations when it sees the connection end.
    func crashRandomDevice(tell: (WatchEvent.Kind) -> Void) async {
        let alive = population.devices.filter { !$0.isCrashed }
        guard !alive.isEmpty else {
            tell(.notice("no simulated device left to crash"))
            return
        }
        guard let device = pick(from: alive) else { return }
        await device.crash()
        tell(.deviceCrashed(device.label))
    }

    /// Picks and applies the churn's next step, tells a change of network, and returns the step
    /// with the device's label.
    @discardableResult
    func step(tell: (WatchEvent.Kind) -> Void) -> (label: String, action: ChurnStep.Action)? {
        let devices = population.devices
        guard !devices.isEmpty else { return nil }
        let step = next(states: devices.map(\.state))
        let device = devices[step.device]
        guard !device.isCrashed else { return nil }
        population.apply(step)
        if case .network(let mode) = step.action { tell(.link(device: device.label, mode: DeviceLink.Mode(mode))) }
        return (device.label, step.action)
    }

    /// Applies a churn step (`--churn`: a drop, a blackhole, a sign-out) every `interval` until
    /// ``stop()``.
    func start(every interval: Duration, tell: @escaping @Sendable (WatchEvent.Kind) -> Void) {
        let task = Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                guard !Task.isCancelled, let self else { return }
                step(tell: tell)
            }
        }
        run(task)
    }
}
