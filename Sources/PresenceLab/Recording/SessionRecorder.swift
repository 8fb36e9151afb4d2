import Foundation
import Presence
import RTDBCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Writes what a dashboard session sees as JSON lines (docs/recording.md): every user's presence
/// when it changes, and this device's connection and write queue when they change, each line
/// stamped with the server's time as this device estimates it.
///
/// It works from the snapshots the dashboard draws, so a recording holds what was on screen.
public final class SessionRecorder: Sendable {
    /// Why a recording could not be made.
    public struct Failure: Error, CustomStringConvertible {
        /// What went wrong, with the file's path.
        public var description: String
    }

    /// The recording format's version, in its first line.
    public static let version = 1

    private let descriptor: Int32
    private let path: String
    private let state = Mutex(State())

    private struct State {
        var started = false
        /// Each user's last written presence (users compared by code units, as Firebase keys are).
        var users: [CodeUnitString: JSONValue] = [:]
        var connection: JSONValue?
        var queue: JSONValue?
        /// The bytes of whole lines in the file.
        var written: Int64 = 0
        /// Why the recording stopped (the disk is full, say), once it has.
        var failure: String?
        var closed = false
        /// The last line's time (ms since the epoch).
        var lastStamp: Int64 = .min
    }

    /// Opens the file at `path` as given and empties it: a symlink is followed (its target is
    /// written, the link stays), a new file is made; a folder, a device, a pipe or a socket is
    /// refused before anything is written to it.
    public init(path: String) throws(Failure) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            let reason = errno == EISDIR ? "it is a folder" : String(cString: strerror(errno))
            throw Failure(description: "cannot write the recording \(path): \(reason)")
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            _ = Glibc.close(descriptor)
            throw Failure(
                description:
                    "cannot write the recording \(path): it is not a regular file (a device, a pipe or a socket); name a new file or an existing one"
            )
        }
        guard ftruncate(descriptor, 0) == 0 else {
            let reason = String(cString: strerror(errno))
            _ = Glibc.close(descriptor)
            throw Failure(description: "cannot write the recording \(path): \(reason)")
        }
        self.descriptor = descriptor
        self.path = path
    }

    /// Writes whatever changed since the last snapshot (everything, the first time).
    ///
    /// A write that fails (the disk is full) stops the recording: the file is cut back to its
    /// last whole line, so it replays up to the moment before, and nothing more is written
    /// (later lines would describe changes from state the file does not hold).
    public func observe(_ snapshot: WatchSnapshot) {
        state.withLock { state in
            guard state.failure == nil, !state.closed else { return }
            let lines = Self.changes(snapshot, &state)
            guard !lines.isEmpty else { return }
            let bytes = Array((lines.map(\.jsonString).joined(separator: "\n") + "\n").utf8)
            if let error = DescriptorWriter.write(bytes, to: descriptor) {
                let problem = error == EIO ? "nothing was written" : DescriptorWriter.reason(error)
                _ = ftruncate(descriptor, off_t(state.written))
                state.failure = problem
            } else {
                state.written += Int64(bytes.count)
            }
        }
    }

    /// Why the recording stopped (the disk is full, say), once it has; the file holds what came
    /// before, in whole lines.
    public var failure: String? { state.withLock { $0.failure } }

    /// The file's path.
    public var file: String { path }

    /// Flushes and closes the file.
    public func close() {
        state.withLock { state in
            guard !state.closed else { return }
            state.closed = true
            _ = fsync(descriptor)
            _ = Glibc.close(descriptor)
        }
    }

    private static func changes(_ snapshot: WatchSnapshot, _ state: inout State) -> [JSONValue] {
        // The server-time estimate moves back a little when a new skew sample lowers it; a
        // recording is a timeline, so its stamps never go back.
        let stamp = max(snapshot.serverTimeEstimate.millisecondsSince1970, state.lastStamp)
        state.lastStamp = stamp
        let at = JSONValue.int(stamp)
        var lines: [JSONValue] = []
        if !state.started {
            state.started = true
            lines.append([
                "type": "start", "t": at, "version": .int(Int64(version)), "server": .string(snapshot.server),
                "user": snapshot.thisDevice.map { .string($0.user) } ?? .null,
                "device": snapshot.thisDevice.map { .string($0.device) } ?? .null,
            ])
        }
        var seen = Set<CodeUnitString>()
        for user in snapshot.users {
            let key = CodeUnitString(user.id)
            seen.insert(key)
            let record = presence(user)
            if state.users[key] != record {
                state.users[key] = record
                lines.append(["type": "presence", "t": at, "user": .string(user.id), "state": record])
            }
        }
        for gone in state.users.keys.filter({ !seen.contains($0) }) {
            state.users[gone] = nil
            lines.append(["type": "presence", "t": at, "user": .string(gone.string), "state": .null])
        }
        if let device = snapshot.thisDevice {
            let connection = Self.connection(device)
            if state.connection != connection {
                state.connection = connection
                lines.append(["type": "connection", "t": at, "state": connection])
            }
            let queue: JSONValue = [
                "pending": .array(device.pendingWrites.map(write)),
                "deadLetters": .array(device.deadLetters.map(write)),
            ]
            if state.queue != queue {
                state.queue = queue
                lines.append(["type": "queue", "t": at, "state": queue])
            }
        }
        return lines
    }

    private static func presence(_ user: UserPresence) -> JSONValue {
        [
            "lastOnline": user.lastOnline.map { .int($0.millisecondsSince1970) } ?? .null,
            "connections": .array(
                user.connections.map { connection in
                    [
                        "id": .string(connection.id), "device": connection.device.map { .string($0) } ?? .null,
                        "connectedAt": connection.connectedAt.map { .int($0.millisecondsSince1970) } ?? .null,
                    ]
                }),
        ]
    }

    private static func connection(_ device: WatchSnapshot.ThisDevice) -> JSONValue {
        let phase: String
        switch device.status.phase {
        case .offline: phase = "offline"
        case .connecting: phase = "connecting"
        case .connected: phase = "connected"
        case .waitingToRetry: phase = "waiting"
        }
        return [
            "phase": .string(phase), "link": .string(device.link.mode.rawValue),
            "entry": device.entryKey.map { .string($0) } ?? .null,
            "serverTimeOffsetMs": .int(device.status.serverTimeOffset.wholeMilliseconds),
        ]
    }

    private static func write(_ write: QueuedWrite) -> JSONValue {
        let state: String
        switch write.state {
        case .queued: state = "queued"
        case .inFlight: state = "in flight"
        case .paused: state = "paused"
        case .refused: state = "refused"
        }
        return [
            "id": .int(Int64(write.id)), "operation": .string(write.operation), "path": .string(write.path),
            "bytes": .int(Int64(write.bytes)), "enqueuedAt": .int(write.enqueuedAt.millisecondsSince1970),
            "attempts": .int(Int64(write.attempts)), "state": .string(state),
        ]
    }
}
