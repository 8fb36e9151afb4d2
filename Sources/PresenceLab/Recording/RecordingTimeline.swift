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
        case connection(Connection)
        case queue(pending: [QueuedWrite], deadLetters: [QueuedWrite])
    }

    /// This device's connection as a line set it.
    struct Connection: Sendable {
        var phase: ConnectionPhase
        var link: DeviceLink.Mode
        var entry: String?
        var offset: Duration
    }

    /// The server the recording was made against.
    public let server: String
    /// This device's user and name, if the recording had one.
    public let user: String?
    /// This device's name.
    public let device: String?
    /// The changes, in time order.
    let changes: [(at: UnixTime, change: Change)]
    /// The state after some of the changes, so that the state at a moment is rebuilt from the
    /// nearest one before it, not from the start (a recording can have millions of lines).
    let checkpoints: [(index: Int, state: Replayed)]
    /// What happened, as the dashboard's events, each with the number of changes it needed.
    let events: [(changes: Int, event: WatchEvent)]
    /// The first and last times.
    public let start: UnixTime
    /// The last time.
    public let end: UnixTime

    /// The latest time a recording may name: the last millisecond of the year 9999.
    public static let latest = UnixTime(millisecondsSince1970: 253_402_300_799_999)

    /// The times at which something changed, in order.
    public var changeTimes: [UnixTime] { changes.map(\.at) }

    /// Reads the JSON lines of a recording.
    public init(text: String, file: String) throws(Failure) {
        try self.init(bytes: Array(text.utf8), file: file)
    }

    /// Reads the JSON lines of a recording's bytes.
    ///
    /// A last line with no line break after it is a line cut short (the disk filled while it was
    /// written): it is left out if it does not read, and the recording plays up to the line
    /// before. CRLF line ends are read as LF ones.
    ///
    /// - Parameter progress: Told the bytes read now and then; returning false stops the reading
    ///   (the reader has gone), which then throws.
    /// - Throws: ``Failure`` naming the file, the line and the problem.
    public init(bytes: [UInt8], file: String, progress: (Int) -> Bool = { _ in true }) throws(Failure) {
        var reader = LineReader(file: file)
        var lineStart = 0
        var number = 0
        while lineStart < bytes.count {
            let newline = bytes[lineStart...].firstIndex(of: 0x0A)
            let end = newline ?? bytes.count
            number += 1
            if number % 4096 == 0, !progress(lineStart) {
                throw Failure(description: "\(file): reading stopped at line \(number)")
            }
            // A last line with no line break may be one the writer did not finish.
            try reader.read(bytes[lineStart..<end], line: number, cutShort: newline == nil)
            lineStart = end + 1
        }
        guard reader.started else { throw Failure(description: "\(file): empty: no \"start\" line") }
        // In time order; lines of one time keep the file's order.
        let changes = reader.changes.enumerated().sorted { ($0.element.at, $0.offset) < ($1.element.at, $1.offset) }
            .map(\.element)
        var state = Replayed()
        var checkpoints = [(index: 0, state: state)]
        var events: [(changes: Int, event: WatchEvent)] = []
        var sinceCheckpoint = 0
        for (index, (at, change)) in changes.enumerated() {
            state.apply(change, at: at) { events.append((index + 1, $0)) }
            sinceCheckpoint += 1
            // One full state per so many changes: the checkpoints together hold no more entries
            // than the changes do.
            if sinceCheckpoint >= max(1024, state.users.count) {
                checkpoints.append((index + 1, state))
                sinceCheckpoint = 0
            }
        }
        server = reader.server
        user = reader.user
        device = reader.device
        self.changes = changes
        self.checkpoints = checkpoints
        self.events = events
        start = changes.first?.at ?? .epoch
        end = changes.last?.at ?? start
    }

    /// The time of the first change after `time`, if any.
    public func nextChange(after time: UnixTime) -> UnixTime? {
        let index = changesUpTo(time)
        return index < changes.count ? changes[index].at : nil
    }

    /// The time of the last change before `time`, if any.
    public func previousChange(before time: UnixTime) -> UnixTime? {
        let index = Self.partition(changes.count) { changes[$0].at < time }
        return index > 0 ? changes[index - 1].at : nil
    }

    /// How many changes are at or before `time`.
    private func changesUpTo(_ time: UnixTime) -> Int {
        Self.partition(changes.count) { changes[$0].at <= time }
    }

    /// The first index in `0..<count` for which `isBefore` is false (it is true, then false).
    static func partition(_ count: Int, _ isBefore: (Int) -> Bool) -> Int {
        var (low, high) = (0, count)
        while low < high {
            let middle = (low + high) / 2
            if isBefore(middle) { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Everything the panes show, as it stood at `time`: each user's and this device's last
    /// line at or before it.
    public func snapshot(at time: UnixTime) -> WatchSnapshot { state(at: time).snapshot }

    /// The snapshot at `time`, and what happened up to it as the dashboard's events (the latest
    /// `limit` of them): presence changes, this device's connection and queue depth.
    public func state(at time: UnixTime, events limit: Int = 500) -> (
        snapshot: WatchSnapshot, events: [WatchEvent]
    ) {
        let count = changesUpTo(time)
        let checkpoint = checkpoints[Self.partition(checkpoints.count) { checkpoints[$0].index <= count } - 1]
        var state = checkpoint.state
        for index in checkpoint.index..<count { state.apply(changes[index].change, at: changes[index].at) { _ in } }
        let eventCount = Self.partition(events.count) { events[$0].changes <= count }
        let shown = events[max(0, eventCount - limit)..<eventCount].map(\.event)
        let connection = state.connection
        let users = state.users
        let queue = state.queue
        // The recorded time is the server's; this device's clock read it less its offset.
        let offset = connection?.offset ?? .zero
        let takenAt = time - offset
        let live = ConnectionStatus(
            phase: .connected(sessionID: "recording"), serverTimeOffset: .zero, lastHeardAt: time)
        var thisDevice: WatchSnapshot.ThisDevice?
        if let user, let device {
            var status = ConnectionStatus(phase: connection?.phase ?? .offline, serverTimeOffset: offset)
            status.lastHeardAt = takenAt
            thisDevice = WatchSnapshot.ThisDevice(
                user: user, device: device, entryKey: connection?.entry, status: status,
                link: DeviceLink(mode: connection?.link ?? .up, conditions: "as recorded"),
                pendingWrites: queue.pending, deadLetters: queue.dead)
        }
        var snapshot = WatchSnapshot(
            takenAt: takenAt, server: "recording of \(server)", thisDevice: thisDevice,
            users: users,
            ownEntryKeys: Set([connection?.entry].compactMap { $0 }))
        snapshot.usersFeed.status = live
        return (snapshot, shown)
    }
}
