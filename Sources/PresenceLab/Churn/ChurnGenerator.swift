import LinkSim
import RTDBCore

/// Picks what happens next in a simulated population (`--churn`), from a seed: the same seed
/// and the same states give the same steps. (Scenario files are another thing: docs/scenarios.md.)
///
/// A device whose network is down gets it back most of the time; one that is up loses it
/// (reset or blackhole) or has its user sign out or in.
public struct ChurnGenerator: Sendable {
    /// What the generator needs to know of a device.
    public struct DeviceState: Sendable, Equatable {
        /// Its network.
        public var network: LinkMode
        /// Whether its user is signed in.
        public var signedIn: Bool

        /// Makes a device state.
        public init(network: LinkMode, signedIn: Bool) {
            self.network = network
            self.signedIn = signedIn
        }
    }

    private var random: SeededRandom

    /// Makes a generator.
    public init(seed: UInt64) {
        random = SeededRandom(seed: seed)
    }

    /// The next step for one of `states.count` devices.
    public mutating func next(states: [DeviceState]) -> ChurnStep {
        precondition(!states.isEmpty, "the churn needs at least one device")
        let device = Int.random(in: 0..<states.count, using: &random)
        let state = states[device]
        let roll = Int.random(in: 0..<100, using: &random)
        let action: ChurnStep.Action
        if state.network != .up {
            action = roll < 80 ? .network(.up) : .network(state.network == .offline ? .blackhole : .offline)
        } else if !state.signedIn {
            action = roll < 70 ? .signIn : .network(.offline)
        } else {
            switch roll {
            case ..<45: action = .network(.offline)
            case ..<75: action = .network(.blackhole)
            default: action = .signOut
            }
        }
        return ChurnStep(device: device, action: action)
    }
}
