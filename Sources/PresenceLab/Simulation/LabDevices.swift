import LinkSim
import Logging
import RTDBClient
import RTDBCore

/// The lab's own device, assembled for a simulation's options: how it and the population reach
/// the server, and this device with its link, its database and its clock.
enum LabDevices {
    /// This device: its link, its database (pinged often, its queue and cache on disk if asked),
    /// its clock.
    static func makeThisDevice(
        _ device: SimulationOptions.ThisDevice, _ options: SimulationOptions, _ target: ServerTarget, _ logger: Logger
    ) async throws -> SimulatedDevice {
        let (link, database, clock) = try await openThisDevice(device, options, target, logger)
        // Pinged every 2 s, this device shows a silent server and a moved clock within seconds.
        var policy = options.retryPolicy
        policy.pingInterval = Simulation.feedPingInterval
        database.retryPolicy = policy
        database.persistenceMaxPendingBytes = device.maxPendingBytes
        if let directory = device.persistenceDirectory {
            database.isPersistenceEnabled = true
            database.persistenceDirectory = directory
            // The ports change every run; the queue and cache belong to the setup behind them.
            let fileName = ThisDeviceStateFile.name(server: options.server, target: target)
            if case .embedded = options.server {
                ThisDeviceStateFile.adoptEarlierFiles(
                    in: directory, namespace: target.namespace, as: fileName, logger: logger)
            }
            database.persistenceFileName = fileName
        }
        return SimulatedDevice(
            user: device.user, name: device.device, link: link, database: database, clock: clock,
            root: options.presencePath)
    }

    /// This device's link, and the database behind it on a clock of its own: a link proxy of its
    /// own on loopback (idle over TLS, which goes end to end), or a simulated link.
    private static func openThisDevice(
        _ device: SimulationOptions.ThisDevice, _ options: SimulationOptions, _ target: ServerTarget, _ logger: Logger
    ) async throws -> (any NetworkLink, Database, SkewedClock) {
        if case .simulated = options.server {
            let opener = deviceOpener(options, target, logger)
            let clock = SkewedClock(base: opener.time.now)
            let (link, database) = try await opener.open(
                0xD15C, "\(device.user)/\(device.device)", opener.time.withWall(clock.now))
            return (link, database, clock)
        }
        let link = try LinkProxy(
            upstreamHost: target.host, upstreamPort: target.port, conditions: options.conditions,
            seed: options.seed &+ 0xD15C, logger: logger)
        let port = try await link.start()
        let clock = SkewedClock()
        // TLS goes end to end: the link cannot stand in the middle of it, and stays idle.
        let url = target.isSecure ? target.url : "http://127.0.0.1:\(port)?ns=\(target.namespace)"
        let database = Database(
            url: url, transport: target.isSecure ? options.transport : WebSocketTransport(),
            time: options.time.withWall(clock.now),
            logger: logger)
        return (link, database, clock)
    }

    /// How the population's devices reach the server: simulated links on a stage, or link
    /// proxies on loopback.
    static func deviceOpener(_ options: SimulationOptions, _ target: ServerTarget, _ logger: Logger)
        -> DeviceOpener
    {
        if case .simulated(let stage) = options.server {
            return .simulated(
                stage, heartbeat: options.heartbeatTimeout, conditions: options.conditions, seed: options.seed,
                logger: logger)
        }
        return .loopback(
            host: target.host, port: target.port, namespace: target.namespace, conditions: options.conditions,
            seed: options.seed, logger: logger)
    }
}
