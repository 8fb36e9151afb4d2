import Dashboard
import Foundation
import PresenceModel
import RTDBCore
import WatchModel

/// A fixed simulation snapshot: the same screen every run.
enum Fixture {
    /// 2026-11-22 14:05:00 UTC.
    static let now = UnixTime(millisecondsSince1970: 1_795_356_300_000)
    /// When the reducer tests' events happen: a few seconds before ``now``.
    static let eventTime = now - .seconds(5)

    static func connectionStatus(connected: Bool = true) -> ConnectionStatus {
        ConnectionStatus(
            phase: connected
                ? .connected(sessionID: "a41f9c2e0b7d3e11")
                : .waitingToRetry(attempt: 3, retryAt: now + .milliseconds(2_100), reason: "connection closed"),
            serverTimeOffset: .milliseconds(-212),
            clockSkew: ClockSkewEstimate(offset: .milliseconds(-205), errorBound: .milliseconds(4), samples: 9),
            lastRoundTrip: .milliseconds(8), connectedAt: connected ? now - .seconds(192) : nil,
            lastHeardAt: now - .milliseconds(400))
    }

    static func link(_ mode: DeviceLink.Mode = .up) -> DeviceLink {
        DeviceLink(mode: mode, conditions: "15 ms ± 10 ms", bytesUp: 38 * 1024, bytesDown: 122 * 1024)
    }

    static func write(_ id: Int, age: Duration, state: QueuedWrite.State = .queued) -> QueuedWrite {
        QueuedWrite(
            id: id, operation: "set", path: "/notes/morgan/-Nx\(id)", bytes: 47, enqueuedAt: now - age, attempts: 0,
            state: state)
    }

    /// A write the server refused.
    static func refused(_ id: Int, status: String = "permission_denied", reason: String) -> QueuedWrite {
        write(id, age: .seconds(3), state: .refused(status: status, reason: reason))
    }

    static func users(count: Int = 5, devices: Int = 2) -> [UserPresence] {
        let names = ["alex", "casey", "jordan", "morgan", "sam", "riley", "quinn", "taylor"]
        return (0..<count).map { index in
            let id = index < names.count ? names[index] : "user\(index + 1)"
            if id == "jordan" { return UserPresence(id: id, connections: [], lastOnline: now - .seconds(208)) }
            var connections = (0..<devices).map { device in
                UserPresence.Connection(
                    id: "\(id)-\(device)", device: ["phone", "laptop", "tablet"][device % 3],
                    connectedAt: now - .seconds(12 * (device + 1)))
            }
            if id == "morgan" {
                connections.append(
                    UserPresence.Connection(id: "mine", device: "this device", connectedAt: now - .seconds(192)))
            }
            return UserPresence(id: id, connections: connections)
        }
    }

    static func snapshot(
        connected: Bool = true, mode: DeviceLink.Mode = .up, pending: [QueuedWrite] = [], dead: [QueuedWrite] = [],
        users: [UserPresence] = users()
    ) -> WatchSnapshot {
        var snapshot = WatchSnapshot(
            takenAt: now, server: "embedded 127.0.0.1:40000 ns=presencetop", heartbeatTimeout: .seconds(5),
            thisDevice: WatchSnapshot.ThisDevice(
                user: "morgan", device: "this device", entryKey: connected ? "mine" : nil,
                status: connectionStatus(connected: connected), link: link(mode), pendingWrites: pending,
                deadLetters: dead),
            users: PresenceList(users), silence: ["casey-0": .milliseconds(3_100), "alex-0": .milliseconds(200)],
            ownEntryKeys: ["mine"],
            deviceClocks: [
                .init(label: "sam/phone", injectedOffset: .milliseconds(1_200), estimatedOffset: .milliseconds(-1_190)),
                .init(label: "alex/laptop", injectedOffset: .milliseconds(-40), estimatedOffset: .milliseconds(42)),
            ])
        snapshot.enforcesPresenceRules = true
        return snapshot
    }

    /// A state of `width` × `height` that has seen `snapshot`, in UTC.
    static func state(width: Int, height: Int, snapshot: WatchSnapshot = snapshot()) -> DashboardState {
        var state = DashboardState(width: width, height: height)
        state.preferences.timeZone = TimeZone(identifier: "UTC")!
        _ = DashboardReducer.reduce(&state, .snapshot(snapshot))
        return state
    }
}
