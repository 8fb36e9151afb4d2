import Foundation
import Presence
import RTDBCore

/// A recording (``SessionRecorder``) read back: the state at any moment, for a replay.
public struct RecordingTimeline: Sendable {
    /// A recording that cannot be read: its line and the problem.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        /// `FILE:LINE: problem`.
        public var description: String
    }

    /// One line: when, and what it set.
    enum Change: Sendable {
        case presence(user: String, UserPresence?)
        case connection(phase: ConnectionPhase, link: DeviceLink.Mode, entry: String?, offset: Duration)
        case queue(pending: [QueuedWrite], deadLetters: [QueuedWrite])
    }

    /// The server the recording was made against.
    public let server: String
    /// This device's user and name, if the recording had one.
    public let user: String?
    /// This device's name.
    public let device: String?
    /// The changes, in time order.
    let changes: [(at: UnixTime, change: Change)]
    /// The first and last times.
    public let start: UnixTime
    /// The last time.
    public let end: UnixTime

    /// The times at which something changed, in order (for stepping from one to the next).
    public var changeTimes: [UnixTime] { changes.map(\.at) }

    /// Reads the JSON lines of a recording.
    public init(text: String, file: String) throws(Failure) {
        var server = ""
        var user: String?
        var device: String?
        var changes: [(at: UnixTime, change: Change)] = []
        var started = false
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty { continue }
            func fail(_ problem: String) -> Failure { Failure(description: "\(file):\(index + 1): \(problem)") }
            let json: JSONValue
            do {
                json = try JSONParser.parse(line)
            } catch {
                throw fail("not JSON: \(error)")
            }
            guard let type = json["type"]?.stringValue, let t = json["t"]?.intValue else {
                throw fail("a line needs \"type\" and \"t\" (the server's time in ms)")
            }
            let at = UnixTime(millisecondsSince1970: t)
            switch type {
            case "start":
                guard json["version"]?.intValue == Int64(SessionRecorder.version) else {
                    throw fail("version \(json["version"]?.jsonString ?? "?") is not one this build reads (1)")
                }
                started = true
                server = json["server"]?.stringValue ?? ""
                user = json["user"]?.stringValue
                device = json["device"]?.stringValue
                continue
            case _ where !started:
                throw fail("the first line must be the \"start\" line")
            case "presence":
                guard let name = json["user"]?.stringValue, let state = json["state"] else {
                    throw fail("a presence line needs \"user\" and \"state\"")
                }
                changes.append((at, .presence(user: name, state == .null ? nil : Self.presence(name, state))))
            case "connection":
                guard let state = json["state"], let phase = state["phase"]?.stringValue,
                    let link = state["link"]?.stringValue.flatMap(DeviceLink.Mode.init(rawValue:))
                else { throw fail("a connection line needs \"state\" with \"phase\" and \"link\"") }
                let connection: ConnectionPhase
                switch phase {
                case "connected": connection = .connected(sessionID: "recorded")
                case "connecting": connection = .connecting(attempt: 1)
                case "waiting": connection = .waitingToRetry(attempt: 1, retryAt: nil, reason: "as recorded")
                case "offline": connection = .offline
                default: throw fail("unknown phase '\(phase)'")
                }
                let offset = Duration.milliseconds(state["serverTimeOffsetMs"]?.intValue ?? 0)
                changes.append(
                    (at, .connection(phase: connection, link: link, entry: state["entry"]?.stringValue, offset: offset))
                )
            case "queue":
                guard let state = json["state"], let pending = state["pending"]?.arrayValue,
                    let dead = state["deadLetters"]?.arrayValue
                else { throw fail("a queue line needs \"state\" with \"pending\" and \"deadLetters\"") }
                changes.append(
                    (at, .queue(pending: pending.compactMap(Self.write), deadLetters: dead.compactMap(Self.write))))
            default:
                // Lines of kinds a later version adds are skipped, as a reader of a log should.
                continue
            }
        }
        guard started else { throw Failure(description: "\(file): empty: no \"start\" line") }
        changes.sort { $0.at < $1.at }
        self.server = server
        self.user = user
        self.device = device
        self.changes = changes
        start = changes.first?.at ?? .epoch
        end = changes.last?.at ?? start
    }

    /// Everything the panes show, as it stood at `time`: each user's and this device's last
    /// line at or before it.
    public func snapshot(at time: UnixTime) -> SimulationSnapshot { state(at: time).snapshot }

    /// The snapshot at `time`, and what happened up to it as the dashboard's events (the latest
    /// `limit` of them): presence changes, this device's connection and queue depth.
    public func state(at time: UnixTime, events limit: Int = 500) -> (
        snapshot: SimulationSnapshot, events: [SimulationEvent]
    ) {
        var users: [CodeUnitString: UserPresence] = [:]
        var connection: (phase: ConnectionPhase, link: DeviceLink.Mode, entry: String?, offset: Duration)?
        var queue: (pending: [QueuedWrite], dead: [QueuedWrite]) = ([], [])
        var events: [SimulationEvent] = []
        for (at, change) in changes {
            if at > time { break }
            switch change {
            case .presence(let user, let presence):
                let key = CodeUnitString(user)
                let old = users[key]
                users[key] = presence
                for change in PresenceChange.between([old].compactMap { $0 }, [presence].compactMap { $0 }) {
                    events.append(SimulationEvent(at: at, .presence(change)))
                }
            case .connection(let phase, let link, let entry, let offset):
                if connection.map({ !Self.samePhase($0.phase, phase) }) ?? true {
                    events.append(SimulationEvent(at: at, .connection(phase)))
                }
                connection = (phase, link, entry, offset)
            case .queue(let pending, let dead):
                if pending.count != queue.pending.count {
                    events.append(SimulationEvent(at: at, .queue(depth: pending.count)))
                }
                queue = (pending, dead)
            }
            if events.count > 2 * limit { events.removeFirst(events.count - limit) }
        }
        // The recorded time is the server's; this device's clock read it less its offset.
        let offset = connection?.offset ?? .zero
        let takenAt = time - offset
        let live = ConnectionStatus(
            phase: .connected(sessionID: "recording"), serverTimeOffset: .zero, lastHeardAt: time)
        var thisDevice: SimulationSnapshot.ThisDevice?
        if let user, let device {
            var status = ConnectionStatus(phase: connection?.phase ?? .offline, serverTimeOffset: offset)
            status.lastHeardAt = takenAt
            thisDevice = SimulationSnapshot.ThisDevice(
                user: user, device: device, entryKey: connection?.entry, status: status,
                link: DeviceLink(mode: connection?.link ?? .up, conditions: "as recorded"),
                pendingWrites: queue.pending, deadLetters: queue.dead)
        }
        var snapshot = SimulationSnapshot(
            takenAt: takenAt, server: "recording of \(server)", thisDevice: thisDevice,
            users: users.values.sorted { UTF16Order.compare($0.id, $1.id) < 0 },
            ownEntryKeys: Set([connection?.entry].compactMap { $0 }))
        snapshot.presenceFeed = live
        return (snapshot, Array(events.suffix(limit)))
    }

    private static func samePhase(_ a: ConnectionPhase, _ b: ConnectionPhase) -> Bool {
        switch (a, b) {
        case (.offline, .offline), (.connecting, .connecting), (.connected, .connected),
            (.waitingToRetry, .waitingToRetry):
            true
        default: false
        }
    }

    private static func presence(_ user: String, _ state: JSONValue) -> UserPresence {
        let connections = (state["connections"]?.arrayValue ?? []).compactMap {
            connection -> UserPresence.Connection? in
            guard let id = connection["id"]?.stringValue else { return nil }
            return UserPresence.Connection(
                id: id, device: connection["device"]?.stringValue,
                connectedAt: connection["connectedAt"]?.intValue.map(UnixTime.init(millisecondsSince1970:)))
        }
        return UserPresence(
            id: user, connections: connections,
            lastOnline: state["lastOnline"]?.intValue.map(UnixTime.init(millisecondsSince1970:)))
    }

    private static func write(_ json: JSONValue) -> QueuedWrite? {
        guard let id = json["id"]?.intValue, let path = json["path"]?.stringValue else { return nil }
        let state: QueuedWrite.State
        switch json["state"]?.stringValue {
        case "in flight": state = .inFlight
        case "paused": state = .paused(reason: "as recorded")
        case "refused": state = .refused(status: "refused", reason: "as recorded")
        default: state = .queued
        }
        return QueuedWrite(
            id: Int(id), operation: json["operation"]?.stringValue ?? "set", path: path,
            bytes: Int(json["bytes"]?.intValue ?? 0),
            enqueuedAt: UnixTime(millisecondsSince1970: json["enqueuedAt"]?.intValue ?? 0),
            attempts: Int(json["attempts"]?.intValue ?? 0), state: state)
    }
}
