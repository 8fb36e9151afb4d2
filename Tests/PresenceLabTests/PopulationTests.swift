import Foundation
import LinkSim
import Presence
import PresenceLab
import RTDBClient
import RTDBTestSupport
import Testing

/// A seeded scenario on a small population against a real server: whatever happened, presence
/// settles with one entry per signed-in device and no ghosts.
@Suite struct PopulationTests {
    // A population that never settles fails at the time limit: the wait itself has no clock, and
    // the diagnostic below runs once the limit cancels it.
    @Test(.timeLimit(.minutes(3))) func aSeededScenarioSettlesWithoutGhosts() async throws {
        // Under the shipped presence rules: each device writes only its own user's presence.
        let server = try await TestServer.start(
            heartbeatTimeout: .seconds(2), configure: { $0.rules = PresenceRules.rules })
        let watcher = Database(url: "http://127.0.0.1:\(server.port)?ns=demo")
        watcher.setCredential(.emulatorUser(uid: "watcher"))
        let directory = PresenceDirectory(database: watcher)
        directory.start()
        var retryPolicy = RetryPolicy()
        retryPolicy.connectTimeout = .seconds(3)
        let population = try await Population(
            port: server.port, users: 2, devicesPerUser: 2, conditions: .lan, seed: 5, retryPolicy: retryPolicy)
        #expect(population.devices.map(\.label) == ["morgan/phone", "morgan/laptop", "alex/phone", "alex/laptop"])
        #expect(try await until(watcher.changes) { population.isSettled(directory.users) }, "all four online")

        var generator = ChurnGenerator(seed: 5)
        for _ in 0..<24 {
            population.apply(generator.next(states: population.states))
            try await Task.sleep(for: .milliseconds(150))
        }
        population.settle()
        let settled = try await until(watcher.changes) {
            population.isSettled(directory.users)
        }
        if !settled {
            let truth = try await http(
                "GET", "/users.json", port: server.port, headers: ["Authorization": "Bearer owner"]
            ).body
            Issue.record("server: \(truth)")
        }
        #expect(
            try await until(watcher.changes) { population.isSettled(directory.users) },
            "settled: \(directory.users) ghosts \(population.ghosts(in: directory.users)) devices \(population.devices.map { "\($0.label) \($0.state) \($0.session.entryKey ?? "-") \($0.session.connectCount) \($0.database.connectionStatus.phase) \($0.link.stats)" })"
        )
        #expect(directory.users.map(\.id) == ["alex", "morgan"])
        #expect(directory.users.allSatisfy { $0.connections.count == 2 })

        directory.stop()
        await population.close()
        watcher.close()
        await server.stop()
    }
}
