import Foundation
import LinkSim
import Presence
import RTDBClient
import RTDBCore
import WatchModel

/// What a ``Simulation`` runs: which server, this device, and the simulated population.
public struct SimulationOptions: Sendable {
    /// Where the server is.
    public enum Server: Sendable, Equatable {
        /// A server in this process on a free loopback port; `dataDirectory` nil keeps it in memory.
        case embedded(dataDirectory: URL?)
        /// A server somewhere else (ours, or a Firebase emulator).
        case remote(ServerTarget)
        /// A server in this process reached over simulated links, on the stage's clock: the
        /// whole lab on time the caller moves (its heartbeat is ``heartbeatTimeout``).
        case simulated(SimulatedStage)
    }

    /// The device this program is: a persistent client behind its own link.
    public struct ThisDevice: Sendable, Equatable {
        /// The user it signs in as.
        public var user: String
        /// Its name in its presence entry.
        public var device: String
        /// Where its SQLite file goes; nil turns persistence off.
        public var persistenceDirectory: URL?
        /// The most bytes its write queue may hold (`persistenceMaxPendingBytes`).
        public var maxPendingBytes: Int

        /// Makes this device's options.
        public init(
            user: String = "morgan", device: String = "this device", persistenceDirectory: URL? = nil,
            maxPendingBytes: Int = Database.defaultMaxPendingBytes
        ) {
            self.user = user
            self.device = device
            self.persistenceDirectory = persistenceDirectory
            self.maxPendingBytes = maxPendingBytes
        }
    }

    /// A standalone link's control interface (`presencetop proxy`, `http://HOST:PORT`) in front of
    /// the server: this device's network keys drive it instead of its own link.
    public var linkControl: URL?

    /// The server.
    public var server: Server = .embedded(dataDirectory: nil)
    /// Where the watcher's credentials come from (`--credentials` and its kin); nil: an
    /// emulator-style token for this device's user.
    public var credentials: (any DatabaseTokenProvider)?
    /// Who the watcher is signed in as, in words for the header (never the credential).
    public var identity = WatchedFeed.emulatorIdentity
    /// Whether nothing is written: no device of this machine, no population (the default for a
    /// database not on this machine, which is someone's real data).
    public var readOnly = false
    /// How clients reach a `--url` server straight (the watcher, and this device over TLS): the
    /// default trusts the system's roots; `--ca-file` adds one.
    public var transport: any Transport = WebSocketTransport()
    /// Where this device's own writes go (`w` notes, `t` counter), under the root when empty.
    public var writePath = ""
    /// Databases watched beside the server (shards of one app), only read.
    ///
    /// Their users are merged with the server's into one directory.
    public var otherDatabases: [WatchedDatabase] = []
    /// The embedded server's namespace.
    public var namespace = "presencetop"
    /// The embedded or simulated server's heartbeat timeout (how long a blackhole goes unnoticed).
    public var heartbeatTimeout: Duration = .seconds(5)
    /// Where the presence tree lives (`users`, as documented).
    public var presencePath = "users"
    /// How the watched presence tree is laid out (this device and the population write the
    /// documented layout).
    public var layout: PresenceLayout = .documented
    /// This device; nil runs the population alone (the headless demo).
    public var thisDevice: ThisDevice? = ThisDevice()
    /// Simulated users (0: none).
    public var users = 8
    /// Whether an embedded server's presence tree starts with this device's user alone: users an
    /// earlier run simulated (say with more users) are not shown as offline forever.
    public var freshPopulation = false
    /// Devices per simulated user.
    public var devicesPerUser = 2
    /// Seeds the links' jitter, the devices' clocks and the scenario.
    public var seed: UInt64 = 1
    /// Every link's conditions while up.
    public var conditions: LinkConditions = .wifi
    /// The conditions `toggleLatency` switches this device's link to.
    public var slowConditions = LinkConditions(latency: .milliseconds(400), jitter: .milliseconds(100))
    /// Each simulated device's clock is off by up to this much either way.
    public var clockSpread: Duration = .milliseconds(1_500)
    /// Every client's reconnection policy.
    public var retryPolicy: RetryPolicy = {
        // A connect attempt swallowed by a blackhole is given up after 5 s (30 s in the SDKs), so
        // devices come back within a person's patience.
        var policy = RetryPolicy()
        policy.connectTimeout = .seconds(5)
        return policy
    }()

    /// The simulation's own time: the wall clock snapshots are stamped with, and what its timers
    /// (renewing this device's credential, polling a proxy) sleep on; tests pass time they move
    /// by hand.
    public var time = TimeSource.system

    /// The embedded server's time (its heartbeat, a credential's expiry, a stream's keep-alive);
    /// a test passes time it moves by hand, so that the server judges a silent session only when
    /// the test says time has passed.
    public var serverTime = TimeSource.system

    /// The defaults: an embedded in-memory server, this device, 8 users × 2 devices on Wi-Fi.
    public init() {}

    /// The defaults, on `stage`: its server over simulated links, and its clock for everything
    /// the simulation stamps and waits on.
    public static func simulated(on stage: SimulatedStage) -> SimulationOptions {
        var options = SimulationOptions()
        options.server = .simulated(stage)
        (options.time, options.serverTime) = (stage.time, stage.time)
        return options
    }
}
