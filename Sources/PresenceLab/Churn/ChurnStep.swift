import LinkSim

/// One thing that happens to one simulated device.
public struct ChurnStep: Sendable, Equatable, CustomStringConvertible {
    /// What happens.
    public enum Action: Sendable, Equatable {
        /// The device's network changes (it loses it, or it comes back).
        case network(LinkMode)
        /// The user signs out on the device (a clean goodbye).
        case signOut
        /// The user signs in again on the device.
        case signIn
    }

    /// The device's index in the population.
    public var device: Int
    /// What happens to it.
    public var action: Action

    /// Makes a step.
    public init(device: Int, action: Action) {
        self.device = device
        self.action = action
    }

    /// For example `#3 network blackhole`.
    public var description: String {
        switch action {
        case .network(let mode): "#\(device) network \(mode)"
        case .signOut: "#\(device) signs out"
        case .signIn: "#\(device) signs in"
        }
    }
}
