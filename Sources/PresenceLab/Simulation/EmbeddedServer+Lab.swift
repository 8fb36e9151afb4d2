import Presence
import RTDBCore
import RTDBServer

extension ServerConfiguration {
    /// The lab's embedded server's configuration, the same at each start: the heartbeat and
    /// namespace asked for, token expiry enforced, the presence rules.
    mutating func configureForLab(_ options: SimulationOptions) {
        heartbeatTimeout = options.heartbeatTimeout
        defaultNamespace = options.namespace
        // `a` expires this device's credential: the server must refuse it for that to show.
        enforcesTokenExpiry = true
        // Each user may write only their own presence, as a real deployment would have it.
        rules = PresenceRules.rules
    }
}

extension EmbeddedServer {
    /// Removes from the embedded server's presence tree every user but this device's, as admin.
    func clearEarlierPopulation(_ options: SimulationOptions) async {
        let registry = server.registry
        guard let engine = try? await registry.lease(options.namespace) else { return }
        defer { registry.release(options.namespace) }
        let root = Path(options.presencePath)
        let keep = options.thisDevice.map { CodeUnitString($0.user) }
        var removals = JSONValue.Members()
        for (key, _) in await engine.currentRoot.child(at: root).children where key.codeUnitString != keep {
            removals[key.codeUnitString] = .null
        }
        guard !removals.isEmpty else { return }
        _ = await engine.updateStored(root, data: removals, auth: .admin)
    }
}
