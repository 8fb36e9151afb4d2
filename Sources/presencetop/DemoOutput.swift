import Foundation
import Presence
import PresenceLab
import Synchronization

/// The demo's printed timeline: one line per event, stamped with the time since the start,
/// written whole from any thread.
final class DemoOutput: Sendable {
    private let started = ContinuousClock.now
    private let lock = Mutex(())

    func line(_ text: String) {
        lock.withLock { _ in FileHandle.standardOutput.write(Data((text + "\n").utf8)) }
    }

    func event(_ text: String) {
        let elapsed = ContinuousClock.now - started
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        line(String(format: "%8.2fs  ", seconds) + text)
    }

    func summary(users: PresenceList, population: Population, steps: Int) {
        let up = population.devices.reduce(0) { $0 + $1.link.stats.bytesUp }
        let down = population.devices.reduce(0) { $0 + $1.link.stats.bytesDown }
        line("")
        line(
            "\(population.devices.count) devices, \(steps) steps; the links carried \(up / 1024) KiB up, \(down / 1024) KiB down"
        )
        let nameWidth = max(4, users.map(\.id.count).max() ?? 0)
        line(
            "user".padding(toLength: nameWidth, withPad: " ", startingAt: 0) + "  online  last online (UTC)    devices")
        let formatter = ISO8601DateFormatter()
        for user in users {
            let last =
                user.lastOnline.map { formatter.string(from: $0.date) } ?? "-"
            let devices = user.connections.map { $0.device ?? "?" }.joined(separator: ", ")
            line(
                user.id.padding(toLength: nameWidth, withPad: " ", startingAt: 0) + "  "
                    + (user.isOnline ? "yes   " : "no    ") + "  "
                    + last.padding(toLength: 21, withPad: " ", startingAt: 0)
                    + devices)
        }
    }
}
