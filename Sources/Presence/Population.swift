import LinkSim
import Logging
import RTDBClient

/// A simulated population: users with several devices each, every device behind its own
/// fault-injecting link to one server.
public final class Population: Sendable {
    /// Every device, user by user.
    public let devices: [SimulatedDevice]

    /// The first users' names; later ones are numbered (user9, user10 and so on).
    static let userNames = ["morgan", "alex", "sam", "riley", "jordan", "casey", "taylor", "quinn"]
    /// Device names, in the order a user gets them.
    static let deviceNames = ["phone", "laptop", "tablet", "watch", "desktop", "tv"]

    /// The name of user `index`.
    public static func userName(_ index: Int) -> String {
        index < userNames.count ? userNames[index] : "user\(index + 1)"
    }

    /// Starts `users` × `devicesPerUser` devices against the server at `host:port`, each signed
    /// in and online.
    ///
    /// - Parameters:
    ///   - conditions: Every link's delay, jitter and bandwidth.
    ///   - seed: Seeds the links' jitter.
    ///   - retryPolicy: Every device's reconnection policy.
    public init(
        host: String = "127.0.0.1", port: Int, namespace: String = "demo", users: Int, devicesPerUser: Int,
        conditions: LinkConditions = .perfect, seed: UInt64 = 0, retryPolicy: RetryPolicy = RetryPolicy(),
        logger: Logger = Logger(label: "presencetop.population")
    ) async throws {
        precondition(users > 0 && devicesPerUser > 0, "a population needs users and devices")
        var devices: [SimulatedDevice] = []
        for userIndex in 0..<users {
            for deviceIndex in 0..<devicesPerUser {
                let name =
                    deviceIndex < Self.deviceNames.count ? Self.deviceNames[deviceIndex] : "device\(deviceIndex + 1)"
                let link = try LinkProxy(
                    upstreamHost: host, upstreamPort: port, conditions: conditions,
                    seed: seed &+ UInt64(devices.count), logger: logger)
                let linkPort = try await link.start()
                let database = Database(url: "http://127.0.0.1:\(linkPort)?ns=\(namespace)", logger: logger)
                database.retryPolicy = retryPolicy
                devices.append(
                    SimulatedDevice(user: Self.userName(userIndex), name: name, link: link, database: database))
            }
        }
        self.devices = devices
        for device in devices { device.session.start() }
    }

    /// Every device's state, for the scenario generator.
    public var states: [ScenarioGenerator.DeviceState] { devices.map(\.state) }

    /// Applies a step.
    public func apply(_ step: ScenarioStep) { devices[step.device].apply(step.action) }

    /// Brings every network back and signs every user in again.
    public func settle() {
        for device in devices {
            device.apply(.network(.up))
            device.apply(.signIn)
        }
    }

    /// Connection entries in `users` that no signed-in device owns now: ghosts (or entries the
    /// server has not yet cleaned up).
    public func ghosts(in users: [UserPresence]) -> [String] {
        let owned = Set(devices.filter(\.isSignedIn).compactMap(\.session.entryKey))
        return users.flatMap { user in
            user.connections.filter { !owned.contains($0.id) }.map { "\(user.id)/\($0.device ?? "?") \($0.id)" }
        }
    }

    /// Whether `users` shows exactly one entry for every signed-in device and nothing else.
    public func isSettled(_ users: [UserPresence]) -> Bool {
        // Every signed-in device has an entry key, and the tree shows exactly those keys, once each
        // (an entry outside them would be a ghost).
        let signedIn = devices.filter(\.isSignedIn)
        let expected = Set(signedIn.compactMap(\.session.entryKey))
        let shown = users.flatMap(\.connections).map(\.id)
        return expected.count == signedIn.count && shown.count == expected.count && Set(shown) == expected
    }

    /// Closes every device.
    public func close() async {
        for device in devices { await device.close() }
    }
}
