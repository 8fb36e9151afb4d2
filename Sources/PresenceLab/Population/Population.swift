import LinkSim
import Logging
import Presence
import RTDBClient
import RTDBCore
import Synchronization

/// A simulated population: users with several devices each, every device behind its own
/// fault-injecting link to one server, with its own clock.
public final class Population: Sendable {
    /// The first users' names; later ones are numbered (user9, user10 and so on).
    static let userNames = ["morgan", "alex", "sam", "riley", "jordan", "casey", "taylor", "quinn"]
    /// Device names, in the order a user gets them.
    static let deviceNames = ["phone", "laptop", "tablet", "watch", "desktop", "tv"]

    private let opener: DeviceOpener
    private let seed: UInt64
    private let retryPolicy: RetryPolicy
    private let clockSpread: Duration
    private let root: String
    private let state = Mutex<[SimulatedDevice]>([])

    /// The name of user `index`.
    public static func userName(_ index: Int) -> String {
        index < userNames.count ? userNames[index] : "user\(index + 1)"
    }

    /// The name of a user's device number `index`.
    static func deviceName(_ index: Int) -> String {
        index < deviceNames.count ? deviceNames[index] : "device\(index + 1)"
    }

    /// Starts `users` × `devicesPerUser` devices against the server at `host:port`, each behind
    /// a link proxy of its own on loopback, signed in and online.
    ///
    /// - Parameters:
    ///   - conditions: Every link's delay, jitter and bandwidth.
    ///   - seed: Seeds the links' jitter and the devices' clock offsets.
    ///   - retryPolicy: Every device's reconnection policy.
    ///   - clockSpread: Each device's clock is off by up to this much either way (0: all exact).
    ///   - root: Where the presence tree lives.
    public convenience init(
        host: String = "127.0.0.1", port: Int, namespace: String = "demo", users: Int, devicesPerUser: Int,
        conditions: LinkConditions = .perfect, seed: UInt64 = 0, retryPolicy: RetryPolicy = RetryPolicy(),
        clockSpread: Duration = .zero, root: String = "users", logger: Logger = Logger(label: "presencetop.population")
    ) async throws {
        try await self.init(
            opener: .loopback(
                host: host, port: port, namespace: namespace, conditions: conditions, seed: seed, logger: logger),
            users: users, devicesPerUser: devicesPerUser, seed: seed, retryPolicy: retryPolicy,
            clockSpread: clockSpread, root: root)
    }

    /// Starts `users` × `devicesPerUser` devices, each opened by `opener` (its link and database),
    /// signed in and online.
    ///
    /// - Parameters:
    ///   - seed: Seeds the devices' clock offsets.
    ///   - retryPolicy: Every device's reconnection policy.
    ///   - clockSpread: Each device's clock is off by up to this much either way (0: all exact).
    ///   - root: Where the presence tree lives.
    public init(
        opener: DeviceOpener, users: Int, devicesPerUser: Int, seed: UInt64 = 0,
        retryPolicy: RetryPolicy = RetryPolicy(), clockSpread: Duration = .zero, root: String = "users"
    ) async throws {
        precondition(users >= 0 && devicesPerUser > 0, "a population needs devices for its users")
        self.opener = opener
        self.seed = seed
        self.retryPolicy = retryPolicy
        self.clockSpread = clockSpread
        self.root = root
        var devices: [SimulatedDevice] = []
        for userIndex in 0..<users {
            for deviceIndex in 0..<devicesPerUser {
                devices.append(
                    try await makeDevice(
                        user: Self.userName(userIndex), name: Self.deviceName(deviceIndex), number: devices.count))
            }
        }
        state.withLock { $0 = devices }
        for device in devices { device.session.start() }
    }

    /// Every device, user by user, crashed ones included (indexes stay stable).
    public var devices: [SimulatedDevice] { state.withLock { $0 } }

    /// Every device's state, for the scenario generator.
    public var states: [ChurnGenerator.DeviceState] { devices.map(\.state) }

    /// Applies a step.
    public func apply(_ step: ChurnStep) {
        let devices = devices
        guard devices.indices.contains(step.device) else { return }
        devices[step.device].apply(step.action)
    }

    /// Adds one more device for `user` (signed in and online) and returns it.
    @discardableResult
    public func addDevice(forUser user: String) async throws -> SimulatedDevice {
        let (number, owned) = state.withLock { devices in (devices.count, devices.filter { $0.user == user }.count) }
        let device = try await makeDevice(user: user, name: Self.deviceName(owned), number: number)
        state.withLock { $0.append(device) }
        device.session.start()
        return device
    }

    /// The live device `user/name`, if there is one (the latest of that name).
    public func device(user: String, name: String) -> SimulatedDevice? {
        devices.last { CodeUnitString.equal($0.user, user) && CodeUnitString.equal($0.name, name) }
    }

    /// Starts `user/name` again as a new process (a new instance behind a new link, in its
    /// place), crashing the old one first if it still runs.
    @discardableResult
    public func restart(user: String, name: String) async throws -> SimulatedDevice? {
        guard
            let index = devices.lastIndex(where: {
                CodeUnitString.equal($0.user, user) && CodeUnitString.equal($0.name, name)
            })
        else { return nil }
        await devices[index].crash()
        let device = try await makeDevice(user: user, name: name, number: index)
        state.withLock { $0[index] = device }
        device.session.start()
        return device
    }

    private func makeDevice(user: String, name: String, number: Int) async throws -> SimulatedDevice {
        var random = SeededRandom(seed: seed &* 31 &+ UInt64(number))
        let spread = clockSpread.wholeMilliseconds
        let offset = spread > 0 ? Int64.random(in: -spread...spread, using: &random) : 0
        let time = opener.time
        let clock = SkewedClock(offset: .milliseconds(offset), base: time.now)
        let (link, database) = try await opener.open(number, "\(user)/\(name)", time.withWall(clock.now))
        database.retryPolicy = retryPolicy
        // Each device is its user, as far as security rules go.
        database.setCredential(.emulatorUser(uid: user))
        return SimulatedDevice(user: user, name: name, link: link, database: database, clock: clock, root: root)
    }

    /// Brings every network back and signs every user in again.
    public func settle() {
        for device in devices {
            device.apply(.network(.up))
            device.apply(.signIn)
        }
    }

    /// Connection entries in `users` that no signed-in device owns now: ghosts (or entries the
    /// server has not yet cleaned up).
    ///
    /// - Parameter others: Entry keys owned by clients outside the population (the dashboard's
    ///   own device).
    public func ghosts(in users: some Collection<UserPresence>, others: Set<String> = []) -> [String] {
        let owned = Set(devices.filter(\.isSignedIn).compactMap(\.session.entryKey)).union(others)
        return users.flatMap { user in
            user.connections.filter { !owned.contains($0.id) }.map { "\(user.id)/\($0.device ?? "?") \($0.id)" }
        }
    }

    /// Whether `users` shows exactly one entry for every signed-in device and nothing else.
    ///
    /// - Parameter others: Entry keys owned by clients outside the population.
    public func isSettled(_ users: some Collection<UserPresence>, others: Set<String> = []) -> Bool {
        // Every signed-in device has an entry key, and the tree shows exactly those keys, once each
        // (an entry outside them would be a ghost).
        let signedIn = devices.filter(\.isSignedIn)
        let expected = Set(signedIn.compactMap(\.session.entryKey)).union(others)
        let shown = users.flatMap(\.connections).map(\.id)
        return expected.count == signedIn.count + others.count && shown.count == expected.count
            && Set(shown) == expected
    }

    /// Closes every device.
    public func close() async {
        for device in devices { await device.close() }
    }
}
