import LinkSim
import RTDBClient
import RTDBCore

extension Simulation {
    /// Everything the dashboard's panes show, now.
    ///
    /// Cheap: no engine queue is waited on.
    public func snapshot() -> WatchSnapshot {
        let now = options.time.now()
        let devices = population.devices
        let server = serverDescription
        // One read of each device's status serves both its silence and its clock.
        let table = embedded?.server.connections
        var silence: [String: Duration] = [:]
        var clocks: [WatchSnapshot.DeviceClock] = []
        for device in devices + [thisDevice].compactMap({ $0 }) {
            let status = device.database.connectionStatus
            if let table, let key = device.session.entryKey, case .connected(let sessionID) = status.phase,
                let info = table[sessionID]
            {
                silence[key] = max(.zero, now - info.lastHeardAt)
            }
            if device !== thisDevice, !device.isCrashed {
                clocks.append(
                    WatchSnapshot.DeviceClock(
                        label: device.label, injectedOffset: device.clock.offset,
                        estimatedOffset: status.clockSkew?.offset))
            }
        }
        var snapshot = WatchSnapshot(
            takenAt: now, server: server,
            heartbeatTimeout: ownsServer ? options.heartbeatTimeout : nil,
            thisDevice: thisDeviceSnapshot(), users: users, silence: silence, ownEntryKeys: ownEntryKeys,
            deviceClocks: clocks)
        let (watcher, directory, others) = (feed.watcher, feed.directory, feed.others)
        snapshot.usersFeed.status = watcher.connectionStatus
        snapshot.usersFeed.loaded = feed.isLoaded
        snapshot.usersFeed.refusal = directory.refusal
        snapshot.layoutsListConnections =
            options.layout.listsConnections || options.otherDatabases.contains { $0.layout.listsConnections }
        if !others.isEmpty {
            let shards = feed.shards
            let first = WatchedFeed(
                name: "\(target)", identity: options.identity, status: watcher.connectionStatus,
                listLoaded: directory.updates > 0, users: shards.first?.count ?? 0, refusal: directory.refusal)
            snapshot.feeds = [first]
            for (index, other) in others.enumerated() {
                snapshot.feeds.append(
                    WatchedFeed(
                        name: "\(other.database.target)", identity: other.database.identity,
                        status: other.watcher.connectionStatus, listLoaded: other.directory.updates > 0,
                        users: index + 1 < shards.count ? shards[index + 1].count : 0,
                        refusal: other.directory.refusal))
            }
        }
        snapshot.enforcesPresenceRules = ownsServer
        snapshot.access = WatchSnapshot.Access(
            identity: options.credentials == nil ? nil : options.identity, isReadOnly: options.readOnly,
            isLocal: target.isLocal, linkInPath: !target.isSecure)
        snapshot.staleAfter = max(
            snapshot.heartbeatTimeout ?? .seconds(15), Self.feedPingInterval * 3 + Self.feedPingGrace)
        return snapshot
    }

    /// The server, for the header: `embedded 127.0.0.1:41234 ns=presencetop`, `simulated`, or
    /// the remote target.
    var serverDescription: String {
        if embedded != nil { return "embedded \(target)" }
        if case .simulated = options.server { return "simulated ns=\(target.namespace)" }
        return "\(target)"
    }

    /// Whether the server is this program's own (embedded or simulated): its heartbeat and rules
    /// are known.
    var ownsServer: Bool {
        if case .remote = options.server { return false }
        return true
    }

    private func thisDeviceSnapshot() -> WatchSnapshot.ThisDevice? {
        guard let device = thisDevice else { return nil }
        let (pending, dead, slow, explanations) = ledger.current
        let (expired, expiresAt) = (credential.isExpired, credential.expiresAt)
        var status = device.database.connectionStatus
        let link = device.link.stats
        status.phase = status.phase.explained(by: link)
        var snapshot = WatchSnapshot.ThisDevice(
            user: device.user, device: device.name, entryKey: device.session.entryKey,
            status: status, link: DeviceLink(link), isSlow: slow,
            clockOffset: device.clock.offset, pendingWrites: pending.map(QueuedWrite.init),
            pendingBytesBound: device.database.persistenceMaxPendingBytes,
            deadLetters: dead.map { QueuedWrite($0, explanation: explanations[$0.id]) },
            credentialExpired: expired, credentialExpiresAt: expiresAt)
        snapshot.proxy = proxy.link
        snapshot.storeFailing = device.database.storeFailure?.reason
        return snapshot
    }

    /// What this device's disk cache holds; nil without persistence.
    ///
    /// It waits on the engine's queue and reads SQLite: ask for it while something shows it,
    /// about once a second.
    public func cacheSummary() -> CacheSummary? {
        thisDevice?.database.cacheReport().map(CacheSummary.init)
    }

    /// This device's onDisconnect operations, each with whether the server would run it now (one
    /// request to the server; ask while something shows it, every few seconds).
    public func onDisconnectSummary() async -> OnDisconnectSummary {
        guard let device = thisDevice else { return OnDisconnectSummary(problem: "no device of its own") }
        do {
            return OnDisconnectSummary(try await device.database.onDisconnectReport())
        } catch {
            return OnDisconnectSummary(problem: "\(error)")
        }
    }

    /// How often the watcher and this device ping the server, so that a silent one shows soon.
    static let feedPingInterval: Duration = .seconds(2)
    /// Room for a ping's answer on a loaded machine before a feed counts as stale.
    static let feedPingGrace: Duration = .seconds(1)
}
