import Presence
import RTDBClient
import RTDBCore

extension ScenarioRun {
    /// Whether a scenario's condition holds now: nil if it does, else what stands in its way.
    ///
    /// Presence is judged on the watcher's view, and only once the watcher has been connected for
    /// ``presenceSettling``: after a reconnect its view is the old one until its listen is
    /// answered again.
    static func whyNot(_ condition: ScenarioFile.Condition, on simulation: Simulation) -> String? {
        if case .queueEmpty = condition {
        } else {
            let watching = simulation.feed.watcher.connectionStatus
            let now = simulation.options.time.now()
            guard watching.phase.isConnected, let since = watching.connectedAt, now - since >= Self.presenceSettling
            else {
                return "the watcher is (re)connecting: presence as the server has it is not known yet"
            }
        }
        let users = simulation.users
        func shown(_ user: String) -> [UserPresence.Connection] {
            users.first { CodeUnitString.equal($0.id, user) }?.connections ?? []
        }
        func names(_ connections: [UserPresence.Connection]) -> String {
            connections.map { $0.device ?? $0.id }.joined(separator: ", ")
        }
        switch condition {
        case .userOffline(let user):
            let connections = shown(user)
            return connections.isEmpty
                ? nil : "\(user) still shows \(connections.count) connection(s): \(names(connections))"
        case .userOnline(let user):
            return shown(user).isEmpty ? "\(user) shows no connection" : nil
        case .queueEmpty(let label):
            guard let database = database(of: label, on: simulation) else { return "no device \(label)" }
            let queued = database.pendingWrites.count
            if queued > 0 { return "the queue of \(label) holds \(queued) write(s)" }
            return database.connectionStatus.phase.isConnected ? nil : "\(label) is not connected"
        case .oneEntryPerLiveDevice:
            var live = simulation.population.devices.filter(\.isSignedIn)
            if let thisDevice = simulation.thisDevice, thisDevice.isSignedIn { live.append(thisDevice) }
            for device in live {
                guard let key = device.session.entryKey else { return "\(device.label) has no entry yet" }
                let count = shown(device.user).filter { CodeUnitString.equal($0.id, key) }.count
                if count != 1 { return "\(device.label) shows \(count) entries for its connection" }
            }
            return nil
        case .noGhosts:
            let ghosts = simulation.ghosts
            return ghosts.isEmpty ? nil : "ghosts: \(ghosts.joined(separator: ", "))"
        }
    }

    /// How long the watcher must have been connected before its view of presence is judged.
    public static let presenceSettling: Duration = .seconds(1)

    /// The database of `this` or of a population device.
    private static func database(of label: ScenarioFile.Device, on simulation: Simulation) -> Database? {
        switch label {
        case .this: simulation.thisDevice?.database
        case .population(let user, let name): simulation.population.device(user: user, name: name)?.database
        }
    }
}
