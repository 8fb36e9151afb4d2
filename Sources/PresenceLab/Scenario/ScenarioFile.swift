import LinkSim

/// A scenario as a file describes it: a population, timed steps, and expectations the run checks
/// itself against (docs/scenarios.md).
public struct ScenarioFile: Sendable, Equatable {
    /// Which device a step acts on or an expectation looks at.
    public enum Device: Sendable, Hashable, CustomStringConvertible {
        /// The dashboard's own device (`"this"`), with its persistent queue.
        case this
        /// A device of the population, as `user/device` (`alex/phone`).
        case population(user: String, device: String)

        /// `this` or `user/device`.
        public var description: String {
            switch self {
            case .this: "this"
            case .population(let user, let device): "\(user)/\(device)"
            }
        }
    }

    /// What a step does.
    public enum Action: Sendable, Equatable {
        /// The device's network changes mode (up, offline, blackhole).
        case network(Device, LinkMode)
        /// The device's link gets these conditions (latency, jitter, bandwidth).
        case conditions(Device, LinkConditions)
        /// The device makes `count` writes (notes under its user).
        case write(Device, count: Int)
        /// The device runs a transaction (a counter).
        case transaction(Device)
        /// The device's process dies, no goodbye.
        case crash(Device)
        /// A crashed (or live) device starts again as a new process.
        case restart(Device)
        /// The user signs out on the device, or in again.
        case signIn(Device, Bool)
        /// A new device for a user.
        case addDevice(user: String)
        /// The device's wall clock steps by this many seconds.
        case clockJump(Device, seconds: Double)
        /// The device's credential expires (the server revokes it), or is renewed.
        case credential(Device, expired: Bool)
        /// The embedded server stops abruptly and starts again after `downFor` seconds.
        case serverRestart(downFor: Double)

        /// The device it acts on, if one.
        public var device: Device? {
            switch self {
            case .network(let device, _), .conditions(let device, _), .write(let device, _), .transaction(let device),
                .crash(let device), .restart(let device), .signIn(let device, _), .clockJump(let device, _),
                .credential(let device, _):
                device
            case .addDevice, .serverRestart: nil
            }
        }
    }

    /// One timed step.
    public struct Step: Sendable, Equatable {
        /// Seconds after the start.
        public var at: Double
        /// What happens.
        public var action: Action
        /// The line of the file it comes from.
        public var line: Int

        /// Makes a step.
        public init(at: Double, action: Action, line: Int) {
            self.at = at
            self.action = action
            self.line = line
        }
    }

    /// What must become true.
    public enum Condition: Sendable, Equatable {
        /// The user shows no connection.
        case userOffline(String)
        /// The user shows at least one connection.
        case userOnline(String)
        /// The device's write queue is empty (and it is connected).
        case queueEmpty(Device)
        /// Every live, signed-in device shows exactly its one entry.
        case oneEntryPerLiveDevice
        /// No entry that no live device owns.
        case noGhosts
    }

    /// One expectation: a condition that must hold at some moment between `after` and
    /// `after + within` seconds.
    public struct Expectation: Sendable, Equatable {
        /// What must hold.
        public var condition: Condition
        /// From when it is checked, seconds after the start.
        public var after: Double
        /// How long it has from then.
        public var within: Double
        /// The line of the file it comes from.
        public var line: Int

        /// Makes an expectation.
        public init(condition: Condition, after: Double, within: Double, line: Int) {
            self.condition = condition
            self.after = after
            self.within = within
            self.line = line
        }
    }

    /// The population: users × devices, seeded, with the server's heartbeat.
    public struct Population: Sendable, Equatable {
        /// How many users.
        public var users = 2
        /// Devices per user.
        public var devices = 2
        /// The seed of links and clocks.
        public var seed: UInt64 = 1
        /// The server's heartbeat timeout, seconds.
        public var heartbeat: Double = 5

        /// Makes a population.
        public init(users: Int = 2, devices: Int = 2, seed: UInt64 = 1, heartbeat: Double = 5) {
            self.users = users
            self.devices = devices
            self.seed = seed
            self.heartbeat = heartbeat
        }
    }

    /// The scenario's name.
    public var name: String
    /// What it shows, in a sentence or two.
    public var summary: String
    /// The population.
    public var population = Population()
    /// The steps, in time order.
    public var steps: [Step]
    /// The expectations, in file order.
    public var expectations: [Expectation]

    /// When the run is over: the last step, or the last expectation's deadline.
    public var duration: Double {
        max(steps.map(\.at).max() ?? 0, expectations.map { $0.after + $0.within }.max() ?? 0)
    }
}
