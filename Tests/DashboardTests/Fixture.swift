import Dashboard
import Foundation
import LinkSim
import Presence
import PresenceLab
import RTDBClient

/// A fixed simulation snapshot: the same screen every run.
enum Fixture {
    /// 2026-11-22 14:05:00 UTC.
    static let now: Int64 = 1_795_356_300_000
    /// When the reducer tests' events happen: a few seconds before ``now``.
    static let eventTime: Int64 = now - 5_000

    static func connectionStatus(connected: Bool = true) -> ConnectionStatus {
        ConnectionStatus(
            phase: connected
                ? .connected(sessionID: "a41f9c2e0b7d3e11")
                : .waitingToRetry(
                    attempt: 3, retryAt: now + 2_100, reason: "connection closed"),
            serverTimeOffsetMs: -212,
            clockSkew: ClockSkewEstimate(offsetMs: -205, errorBoundMs: 4, samples: 9), lastRoundTripMs: 8,
            connectedAt: connected ? now - 192_000 : nil, lastHeardAt: now - 400)
    }

    static func link(_ mode: LinkMode = .up) -> LinkStats {
        var stats = LinkStats(mode: mode, conditions: .wifi)
        stats.bytesUp = 38 * 1024
        stats.bytesDown = 122 * 1024
        stats.openConnections = 1
        return stats
    }

    static func write(_ id: Int, age: Int64, state: PendingWrite.State = .queued) -> PendingWrite {
        PendingWrite(
            id: id, kind: .set, path: "/notes/morgan/-Nx\(id)", bytes: 47,
            enqueuedAt: Date(timeIntervalSince1970: Double(now - age) / 1000), attempts: 0, state: state)
    }

    static func users(count: Int = 5, devices: Int = 2) -> [UserPresence] {
        let names = ["alex", "casey", "jordan", "morgan", "sam", "riley", "quinn", "taylor"]
        return (0..<count).map { index in
            let id = index < names.count ? names[index] : "user\(index + 1)"
            if id == "jordan" { return UserPresence(id: id, connections: [], lastOnline: now - 208_000) }
            var connections = (0..<devices).map { device in
                UserPresence.Connection(
                    id: "\(id)-\(device)", device: ["phone", "laptop", "tablet"][device % 3],
                    connectedAt: now - Int64(12_000 * (device + 1)))
            }
            if id == "morgan" {
                connections.append(
                    UserPresence.Connection(id: "mine", device: "this device", connectedAt: now - 192_000))
            }
            return UserPresence(id: id, connections: connections)
        }
    }

    static func snapshot(
        connected: Bool = true, mode: LinkMode = .up, pending: [PendingWrite] = [], dead: [DeadLetter] = [],
        users: [UserPresence] = users()
    ) -> SimulationSnapshot {
        var snapshot = SimulationSnapshot(
            takenAt: now, server: "embedded 127.0.0.1:40000 ns=presencetop", heartbeatTimeout: .seconds(5),
            thisDevice: SimulationSnapshot.ThisDevice(
                user: "morgan", device: "this device", entryKey: connected ? "mine" : nil,
                status: connectionStatus(connected: connected), link: link(mode), pendingWrites: pending,
                deadLetters: dead),
            users: users, silenceMs: ["casey-0": 3_100, "alex-0": 200], ownEntryKeys: ["mine"],
            deviceClocks: [
                .init(label: "sam/phone", injectedOffsetMs: 1_200, estimatedOffsetMs: -1_190),
                .init(label: "alex/laptop", injectedOffsetMs: -40, estimatedOffsetMs: 42),
            ])
        snapshot.enforcesPresenceRules = true
        return snapshot
    }

    /// A state of `width` × `height` that has seen `snapshot`, in UTC.
    static func state(width: Int, height: Int, snapshot: SimulationSnapshot = snapshot()) -> DashboardState {
        var state = DashboardState(width: width, height: height)
        state.timeZone = TimeZone(identifier: "UTC")!
        _ = DashboardReducer.reduce(&state, .snapshot(snapshot))
        return state
    }
}
