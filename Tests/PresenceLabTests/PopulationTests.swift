import Foundation
import LinkSim
import Logging
import Presence
import PresenceLab
import RTDBClient
import RTDBTestSupport
import Testing

/// A seeded scenario on a small population, on the test's clock and simulated links, under the
/// shipped presence rules: whatever happened, presence settles with one entry per signed-in
/// device and no ghosts.
@Suite struct PopulationTests {
    @Test func aSeededScenarioSettlesWithoutGhosts() async throws {
        let network = try await SimulatedNetwork.start(rules: PresenceRules.rules)
        let stage = SimulatedStage(server: network.server, time: network.time.source)
        let (_, watcher) = network.device("watcher", heartbeat: .seconds(2))
        watcher.setCredential(.emulatorUser(uid: "watcher"))
        let directory = PresenceDirectory(database: watcher)
        directory.start()
        var retryPolicy = RetryPolicy()
        retryPolicy.connectTimeout = .seconds(3)
        let opener = DeviceOpener.simulated(
            stage, heartbeat: .seconds(2), conditions: .lan, seed: 5, logger: Logger(label: "population"))
        let population = try await Population(
            opener: opener, users: 2, devicesPerUser: 2, seed: 5, retryPolicy: retryPolicy)
        let devices = population.devices.map(\.database) + [watcher]
        #expect(population.devices.map(\.label) == ["morgan/phone", "morgan/laptop", "alex/phone", "alex/laptop"])
        #expect(
            await network.run(upTo: .seconds(30), step: .milliseconds(100), settling: devices) {
                population.isSettled(directory.users)
            }, "all four online")

        var generator = ChurnGenerator(seed: 5)
        for _ in 0..<24 {
            population.apply(generator.next(states: population.states))
            _ = await network.run(upTo: .milliseconds(150), step: .milliseconds(50), settling: devices) { false }
        }
        population.settle()
        let settled = await network.run(upTo: .seconds(60), step: .milliseconds(100), settling: devices) {
            population.isSettled(directory.users)
        }
        let stored = await network.server.read("users")
        #expect(
            settled,
            "settled: \(directory.users) ghosts \(population.ghosts(in: directory.users)) server \(String(describing: stored)) devices \(population.devices.map { "\($0.label) \($0.state) \($0.session.entryKey ?? "-") \($0.session.connectCount) \($0.database.connectionStatus.phase) \($0.link.stats)" })"
        )
        #expect(directory.users.map(\.id) == ["alex", "morgan"])
        #expect(directory.users.allSatisfy { $0.connections.count == 2 })

        directory.stop()
        await population.close()
        await network.tearDown(devices)
    }
}
