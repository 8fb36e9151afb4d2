import LinkSim
import Presence
import RTDBClient
import Synchronization

/// One device of a simulated population: its own network link to the server, its own database
/// instance behind it, its own (possibly wrong) clock, and its presence session.
public final class SimulatedDevice: Sendable {
    /// The device's user.
    public let user: String
    /// The device's name (phone, laptop…).
    public let name: String
    /// The device's network.
    public let link: any NetworkLink
    /// The device's database instance (it reaches the server through ``link``).
    public let database: Database
    /// The device's local clock (the database reads time from it).
    public let clock: SkewedClock
    /// The device's presence.
    public let session: PresenceSession
    private let flags = Mutex(Flags())

    private struct Flags {
        var signedIn = true
        var crashed = false
    }

    init(
        user: String, name: String, link: any NetworkLink, database: Database, clock: SkewedClock,
        root: String = "users"
    ) {
        self.user = user
        self.name = name
        self.link = link
        self.database = database
        self.clock = clock
        session = PresenceSession(database: database, userID: user, device: name, root: root)
    }

    /// `user/name`.
    public var label: String { "\(user)/\(name)" }

    /// Whether the user is signed in on this device (a crashed device is not).
    public var isSignedIn: Bool { flags.withLock { $0.signedIn && !$0.crashed } }

    /// Whether the device crashed (it never comes back).
    public var isCrashed: Bool { flags.withLock { $0.crashed } }

    /// The device's state, as the scenario generator sees it.
    public var state: ChurnGenerator.DeviceState {
        ChurnGenerator.DeviceState(network: link.mode, signedIn: isSignedIn)
    }

    /// Applies one scenario action (a crashed device ignores them).
    public func apply(_ action: ChurnStep.Action) {
        guard !isCrashed else { return }
        switch action {
        case .network(let mode): link.mode = mode
        case .signOut:
            guard flags.withLock({ $0.signedIn.exchange(false) }) else { return }
            session.stop()
        case .signIn:
            guard !flags.withLock({ $0.signedIn.exchange(true) }) else { return }
            session.start()
        }
    }

    /// Crashes the device: its process dies with no goodbye.
    ///
    /// The link drops its sockets (the
    /// kernel closes a dead process's connections), so the server sees the connection end without
    /// a WebSocket close and runs its onDisconnect operations; nothing is signed out.
    public func crash() async {
        guard !flags.withLock({ $0.crashed.exchange(true) }) else { return }
        await link.stop()
        database.close()
    }

    /// Closes the instance and the link.
    public func close() async {
        database.close()
        await link.stop()
    }
}

extension Bool {
    /// Sets the value and returns the old one.
    fileprivate mutating func exchange(_ value: Bool) -> Bool {
        defer { self = value }
        return self
    }
}
