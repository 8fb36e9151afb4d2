import Foundation
import LinkSim
import Logging
import Presence
import RTDBClient
import RTDBCore
import RTDBRules
import RTDBServer
import RTDBWire
import Synchronization

/// A whole presence scenario, running for real: a server (embedded or remote), this device (a
/// persistent client behind its own link), a simulated population (each device behind its own
/// link, with its own clock), and a watcher that sees the presence tree as the server has it.
///
/// It reports what happens as typed ``WatchEvent``s and answers ``snapshot()`` with
/// everything a dashboard shows. `presencetop` (the dashboard) and `presencetop demo` are its two
/// consumers.
public final class Simulation: Sendable {
    /// How it was started.
    public let options: SimulationOptions
    /// The server its clients reach.
    public let target: ServerTarget
    /// The embedded server, unless the server is remote (a scenario may restart it).
    public var embedded: EmbeddedServer? { embeddedServer.withLock { $0 } }
    let embeddedServer: Mutex<EmbeddedServer?>
    /// The simulated population.
    public let population: Population
    /// This device, if the options asked for one.
    public let thisDevice: SimulatedDevice?
    /// Everyone's presence as the server has it, from every watched database.
    let feed: PresenceFeed
    let logger: Logger
    let state: Mutex<State>

    /// Signalled after every event (``WatchEvent``) and every change to the merged presence
    /// list: what a test or a tool waits on to see the snapshot change.
    public let changes = ChangeSignal()
    /// This device's credential, kept fresh.
    let credential: ThisDeviceCredential
    /// What the events last told of this device.
    let ledger = ThisDeviceLedger()
    /// The standalone link this device's traffic crosses, if any.
    let proxy: ProxyLinkWatch
    /// The churn and the seeded picks.
    let churn: ChurnDriver

    struct State {
        var onEvent: @Sendable (WatchEvent) -> Void
        var stopped = false
    }

    /// Starts everything and returns once the population is up (this device connects on its own).
    ///
    /// - Parameter onEvent: Called from any thread with every event.
    public static func start(
        _ options: SimulationOptions, logger: Logger = Logger(label: "presencetop.simulation"),
        onEvent: @escaping @Sendable (WatchEvent) -> Void = { _ in }
    ) async throws -> Simulation {
        var embedded: EmbeddedServer?
        let target: ServerTarget
        switch options.server {
        case .embedded(let dataDirectory):
            let server = try await EmbeddedServer.start(
                dataDirectory: dataDirectory, logger: logger, time: options.serverTime
            ) {
                $0.configureForLab(options)
            }
            embedded = server
            target = ServerTarget(host: "127.0.0.1", port: server.port, namespace: options.namespace)
            if options.freshPopulation { await server.clearEarlierPopulation(options) }
        case .remote(let remote):
            target = remote
        case .simulated(let stage):
            try await stage.server.start()
            target = ServerTarget(host: "simulated", port: 0, namespace: options.namespace)
        }
        var options = options
        if options.readOnly { (options.thisDevice, options.users) = (nil, 0) }
        var thisDevice: SimulatedDevice?
        if let device = options.thisDevice {
            thisDevice = try await LabDevices.makeThisDevice(device, options, target, logger)
        }
        let population = try await Population(
            opener: LabDevices.deviceOpener(options, target, logger), users: options.users,
            devicesPerUser: options.devicesPerUser, seed: options.seed, retryPolicy: options.retryPolicy,
            clockSpread: options.clockSpread, root: options.presencePath)
        let simulation = Simulation(
            options: options, target: target, embedded: embedded, population: population, thisDevice: thisDevice,
            logger: logger, onEvent: onEvent)
        simulation.begin()
        return simulation
    }

    private init(
        options: SimulationOptions, target: ServerTarget, embedded: EmbeddedServer?, population: Population,
        thisDevice: SimulatedDevice?, logger: Logger, onEvent: @escaping @Sendable (WatchEvent) -> Void
    ) {
        self.options = options
        self.target = target
        embeddedServer = Mutex(embedded)
        self.population = population
        self.thisDevice = thisDevice
        self.logger = logger
        let watcher: Database
        if case .simulated(let stage) = options.server {
            let link = SimulatedLink(
                server: stage.server, time: stage.time, heartbeat: options.heartbeatTimeout, label: "watcher")
            watcher = stage.database(through: link, time: stage.time, logger: logger)
        } else {
            watcher = Database(url: target.url, transport: options.transport, logger: logger)
        }
        var watcherPolicy = options.retryPolicy
        // Pinged as often as this device, so that a server gone silent shows as stale within seconds.
        watcherPolicy.pingInterval = Self.feedPingInterval
        watcher.retryPolicy = watcherPolicy
        if let credentials = options.credentials {
            watcher.setTokenProvider(credentials)
        } else {
            // Reading presence needs a signed-in user (PresenceRules): the watcher reads as this device's.
            watcher.setCredential(.emulatorUser(uid: options.thisDevice?.user ?? "presencetop"))
        }
        feed = PresenceFeed(watcher: watcher, options: options, retryPolicy: watcherPolicy, logger: logger)
        churn = ChurnDriver(seed: options.seed, population: population)
        proxy = ProxyLinkWatch(control: options.linkControl, time: options.time)
        credential = ThisDeviceCredential(provider: options.credentials, time: options.time)
        state = Mutex(State(onEvent: onEvent))
    }

    /// Wires the observers and starts this device's presence.
    private func begin() {
        proxy.start()
        feed.start(
            tell: { [weak self] kind in self?.emit(kind) },
            // The merged list may change with no change to tell (another shard still shows the user).
            changed: { [weak self] in self?.changes.signal() })
        guard let device = thisDevice else { return }
        // Signed in before anything starts the engine: writes queued by an earlier run go out at
        // the first connection, and without the credential the rules would refuse them all.
        signIn(device)
        device.database.observeConnectionStatus { [weak self] status in
            guard let self else { return }
            let (changed, jumped) = ledger.connectionChanged(to: status)
            if changed {
                emit(.connection(status.phase.explained(by: device.link.stats)))
            }
            if jumped, let jump = status.lastClockJump { emit(.clockJump(by: jump.by)) }
        }
        device.database.observePendingWrites { [weak self] queue in self?.pendingWritesChanged(queue) }
        // Registered at every start, so a tap left unfinished by an earlier run resumes now.
        let counter = counterPath(of: device.user)
        device.database.registerTransaction(named: Self.tapTransaction, update: Self.tap) {
            [weak self] error, committed, snapshot in
            let outcome: WatchEvent.TransactionOutcome =
                if let error {
                    .failed("\(error)")
                } else if committed {
                    .committed(value: snapshot?.value as? Int ?? 0)
                } else {
                    .aborted
                }
            self?.emit(.transaction(path: counter, outcome))
        }
        device.session.start()
    }

    private func pendingWritesChanged(_ queue: [PendingWrite]) {
        guard let device = thisDevice else { return }
        // Called on the callback queue, never the engine's: reading the dead letters may wait for it.
        let deadLetters = device.database.deadLetters
        let (acknowledged, refused, depthChanged) = ledger.queueChanged(to: queue, deadLetters: deadLetters)
        if acknowledged > 0 { emit(.acknowledged(count: acknowledged)) }
        // A rules refusal's event waits for the server's explanation (one request): the client
        // itself hears only Firebase's `Permission denied`.
        for letter in refused where letter.status != .permissionDenied { emit(.deadLetter(QueuedWrite(letter))) }
        let denied = refused.filter { $0.status == .permissionDenied }
        if !denied.isEmpty {
            Task {
                let explanations = await explain(denied)
                for letter in denied { emit(.deadLetter(QueuedWrite(letter, explanation: explanations[letter.id]))) }
            }
        }
        if depthChanged { emit(.queue(depth: queue.count)) }
    }

    /// The name this device's counter transaction is registered under (it survives a restart).
    static let tapTransaction = "tap"

    /// The counter a user's taps go to.
    func counterPath(of user: String) -> String { writePath("counters/\(user)/taps") }

    /// `path` under the write path (``SimulationOptions/writePath``).
    func writePath(_ path: String) -> String {
        let base = options.writePath.split(separator: "/").joined(separator: "/")
        return base.isEmpty ? path : "\(base)/\(path)"
    }

    /// Adds one to the counter.
    @Sendable static func tap(_ data: MutableData) -> TransactionResult {
        data.value = ((data.value as? Int) ?? 0) + 1
        return .success(withValue: data)
    }

    func emit(_ kind: WatchEvent.Kind) {
        let handler = state.withLock { $0.stopped ? nil : $0.onEvent }
        handler?(WatchEvent(at: options.time.now(), kind))
        changes.signal()
    }

    /// Everyone's presence as the server has it now (merged across the watched databases).
    public var users: PresenceList { feed.users }

    /// Entry keys that belong to this device (not to the population).
    var ownEntryKeys: Set<String> { Set([thisDevice?.session.entryKey].compactMap { $0 }) }

    /// Whether presence shows exactly one entry per signed-in device (this one included) and no
    /// ghosts.
    public var isSettled: Bool { population.isSettled(users, others: ownEntryKeys) }

    /// Entries no signed-in device owns.
    public var ghosts: [String] { population.ghosts(in: users, others: ownEntryKeys) }

    /// Stops the churn, the watcher, every device and the embedded server.
    ///
    /// The log says how long each step took (a slow exit names its step: a disk that takes
    /// seconds to sync, a peer that does not answer a close).
    public func stop() async {
        let tasks = state.withLock { state in
            state.stopped = true
            return [churn.stop(), credential.stop()]
        }
        for task in tasks { task?.cancel() }
        proxy.stop()
        feed.stop()
        var steps: [String] = []
        let clock = ContinuousClock()
        func timed(_ name: String, _ step: () async -> Void) async {
            logger.info("stopping: \(name)")
            let took = await clock.measure(step)
            steps.append("\(name) \(Int(took.inMilliseconds)) ms")
        }
        await timed("population") { await population.close() }
        await timed("this device") { await thisDevice?.close() }
        await timed("watcher") { feed.close() }
        await timed("server") {
            await embedded?.stop()
            if case .simulated(let stage) = options.server { await stage.server.stop() }
        }
        logger.notice("stopped: \(steps.joined(separator: ", "))")
    }
}
