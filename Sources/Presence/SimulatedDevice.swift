import LinkSim
import RTDBClient
import Synchronization

/// One device of a simulated population: its own network link to the server, its own database
/// instance behind it, and its presence session.
public final class SimulatedDevice: Sendable {
    /// The device's user.
    public let user: String
    /// The device's name (phone, laptop…).
    public let name: String
    /// The device's network.
    public let link: LinkProxy
    /// The device's database instance (it reaches the server through ``link``).
    public let database: Database
    /// The device's presence.
    public let session: PresenceSession
    private let signedInState = Mutex(true)

    init(user: String, name: String, link: LinkProxy, database: Database) {
        self.user = user
        self.name = name
        self.link = link
        self.database = database
        session = PresenceSession(database: database, userID: user, device: name)
    }

    /// `user/name`.
    public var label: String { "\(user)/\(name)" }

    /// Whether the user is signed in on this device.
    public var isSignedIn: Bool { signedInState.withLock { $0 } }

    /// The device's state, as the scenario generator sees it.
    public var state: ScenarioGenerator.DeviceState {
        ScenarioGenerator.DeviceState(network: link.mode, signedIn: isSignedIn)
    }

    /// Applies one scenario action.
    public func apply(_ action: ScenarioStep.Action) {
        switch action {
        case .network(let mode): link.mode = mode
        case .signOut:
            guard
                signedInState.withLock({ signedIn in
                    defer { signedIn = false }
                    return signedIn
                })
            else { return }
            session.stop()
        case .signIn:
            guard
                signedInState.withLock({ signedIn in
                    defer { signedIn = true }
                    return !signedIn
                })
            else { return }
            session.start()
        }
    }

    /// Closes the instance and the link.
    public func close() async {
        database.close()
        await link.stop()
    }
}
