import Dashboard
import Foundation
import LabDashboard
import Logging
import PresenceLab
import RTDBCore
import RTDBTestSupport
import Synchronization
import Testing
import WatchModel

/// The dashboard's model fed by a whole lab on the test's clock.
///
/// The server, a population of six devices and this device on simulated links
/// (`SimulationOptions.simulated(on:)`), keys turned into effects by the reducer and carried out
/// by the simulation, and the screen rendered from each snapshot. No socket, no sleep: time moves
/// only when the test moves it.
@Suite struct SimulatedLabTests {
    @Test func theScreenFollowsTheLabAsTheTestMovesTime() async throws {
        let lab = try await SimulatedLab.start(users: 3)
        defer { lab.removeFolder() }

        #expect(await lab.run(upTo: .seconds(30)) { lab.isSettled($0) }, "\(lab.screen)")
        #expect(lab.simulation.users.map(\.id).sorted() == ["alex", "morgan", "sam"])
        #expect(lab.simulation.users.flatMap(\.connections).count == 7, "six devices and this one")

        // n: this device goes offline; five writes wait in its queue, on screen.
        lab.press("n")
        lab.press("w", times: 5)
        #expect(
            await lab.run(upTo: .seconds(10)) { $0.contains("Pending writes (5)") && $0.contains("link offline") },
            "\(lab.screen)")
        // Its link reset both ends: the server ended the session and ran its onDisconnect.
        #expect(
            await lab.run(upTo: .seconds(10)) { _ in
                lab.simulation.users.first { $0.id == "morgan" }?.connections.count == 2
            }, "\(lab.simulation.users)")

        // n again: it connects, and the queue drains to the server.
        lab.press("n")
        #expect(
            await lab.run(upTo: .seconds(60)) { $0.contains("● connected") && $0.contains("Pending writes (0)") },
            "\(lab.screen)")
        let notes = await lab.stage.server.read("notes/morgan")
        #expect(notes?.objectValue?.count == 5, "\(String(describing: notes))")

        // Both of sam's devices fall into a blackhole: the server hears nothing, and ends each
        // session between one and two heartbeats later; sam shows offline since then.
        let silencedAt = lab.time.now
        for device in lab.simulation.population.devices where device.user == "sam" {
            device.apply(.network(.blackhole))
        }
        #expect(
            await lab.run(upTo: .seconds(20)) { _ in
                lab.simulation.users.first { $0.id == "sam" }?.connections.isEmpty == true
            }, "\(lab.simulation.users)")
        let sam = try #require(lab.simulation.users.first { $0.id == "sam" })
        let lastOnline = try #require(sam.lastOnline)
        #expect(lastOnline >= silencedAt + .seconds(5) && lastOnline <= silencedAt + .seconds(10), "\(sam)")
        let samRow = lab.render().split(separator: "\n").first { $0.contains("│ sam ") } ?? ""
        #expect(samRow.contains("○ offline") && samRow.contains("last online"), "\(samRow)")
        // The network comes back: sam's devices connect again, and presence settles with one
        // entry per device and no ghost.
        for device in lab.simulation.population.devices where device.user == "sam" {
            device.apply(.network(.up))
        }
        #expect(await lab.run(upTo: .seconds(60)) { lab.isSettled($0) }, "ghosts: \(lab.simulation.ghosts)")
        #expect(lab.simulation.users.flatMap(\.connections).count == 7)
        let alex = lab.simulation.population.devices.filter { $0.user == "alex" }
        #expect(alex.allSatisfy { $0.session.connectCount == 1 }, "idle all along, alex's devices kept their sessions")

        await lab.stop()
    }
}
