import Presence
import RTDBCore

extension RecordingTimeline {
    /// Reads a recording's lines one by one, into the start line's fields and the changes.
    struct LineReader {
        let file: String
        private(set) var started = false
        private(set) var server = ""
        private(set) var user: String?
        private(set) var device: String?
        private(set) var changes: [(at: UnixTime, change: Change)] = []

        init(file: String) { self.file = file }

        /// Reads one line (its bytes, without the line break).
        ///
        /// - Parameter cutShort: Whether the line may be one the writer did not finish (the last,
        ///   with no line break): then it is left out when it is not JSON.
        /// - Throws: ``Failure`` as `FILE:LINE: problem`.
        mutating func read(_ bytes: ArraySlice<UInt8>, line number: Int, cutShort: Bool) throws(Failure) {
            var bytes = bytes
            while let last = bytes.last, last == 0x0D || last == 0x20 || last == 0x09 { bytes.removeLast() }
            while let first = bytes.first, first == 0x20 || first == 0x09 { bytes.removeFirst() }
            if bytes.isEmpty { return }
            func fail(_ problem: String) -> Failure { Failure(description: "\(file):\(number): \(problem)") }
            let json: JSONValue
            do {
                json = try JSONParser.parse(bytes: bytes)
            } catch {
                if cutShort { return }
                throw fail("not JSON: \(error)")
            }
            guard let type = json["type"]?.stringValue, let t = json["t"]?.intValue else {
                throw fail("a line needs \"type\" and \"t\" (the server's time in ms)")
            }
            guard (0...RecordingTimeline.latest.millisecondsSince1970).contains(t) else {
                throw fail(
                    "\"t\" is \(t): a time must be from 0 to \(RecordingTimeline.latest.millisecondsSince1970) ms since 1970"
                )
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
                // An offset is at most a day either way (what a device's clock can be off by).
                let milliseconds = max(-86_400_000, min(86_400_000, state["serverTimeOffsetMs"]?.intValue ?? 0))
                changes.append(
                    (
                        at,
                        .connection(
                            Connection(
                                phase: connection, link: link, entry: state["entry"]?.stringValue,
                                offset: .milliseconds(milliseconds)))
                    ))
            case "queue":
                guard let state = json["state"], let pending = state["pending"]?.arrayValue,
                    let dead = state["deadLetters"]?.arrayValue
                else { throw fail("a queue line needs \"state\" with \"pending\" and \"deadLetters\"") }
                changes.append(
                    (at, .queue(pending: pending.compactMap(Self.write), deadLetters: dead.compactMap(Self.write))))
            default:
                // Lines of kinds a later version adds are skipped, as a reader of a log should.
                break
            }
        }

        /// A time inside a line (`connectedAt`, `lastOnline`), kept within the times a recording
        /// may name.
        private static func time(_ json: JSONValue?) -> UnixTime? {
            json?.intValue.map {
                UnixTime(millisecondsSince1970: max(0, min(RecordingTimeline.latest.millisecondsSince1970, $0)))
            }
        }

        private static func presence(_ user: String, _ state: JSONValue) -> UserPresence {
            let connections = (state["connections"]?.arrayValue ?? []).compactMap {
                connection -> UserPresence.Connection? in
                guard let id = connection["id"]?.stringValue else { return nil }
                return UserPresence.Connection(
                    id: id, device: connection["device"]?.stringValue, connectedAt: time(connection["connectedAt"]))
            }
            return UserPresence(id: user, connections: connections, lastOnline: time(state["lastOnline"]))
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
                bytes: Int(max(0, json["bytes"]?.intValue ?? 0)), enqueuedAt: time(json["enqueuedAt"]) ?? .epoch,
                attempts: Int(max(0, json["attempts"]?.intValue ?? 0)), state: state)
        }
    }
}
