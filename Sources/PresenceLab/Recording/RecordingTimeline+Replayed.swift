import Presence
import RTDBCore

extension RecordingTimeline {
    /// What a recording's changes add up to at one moment: each user's presence, this device's
    /// connection and its queue.
    struct Replayed: Sendable {
        /// Each user's presence (users compared by code units, as Firebase keys are; a checkpoint
        /// shares every user a later change leaves alone).
        var users = PresenceList()
        var connection: Connection?
        var queue: (pending: [QueuedWrite], dead: [QueuedWrite]) = ([], [])

        /// Applies one change made at `at`, telling `event` what the dashboard would have shown.
        mutating func apply(_ change: Change, at: UnixTime, event: (WatchEvent) -> Void) {
            switch change {
            case .presence(let user, let presence):
                let old = users[id: user]
                users = presence.map { users.updating($0) } ?? users.removing(id: user)
                let before = PresenceList([old].compactMap { $0 })
                for change in PresenceChange.between(before, PresenceList([presence].compactMap { $0 })) {
                    event(WatchEvent(at: at, .presence(change)))
                }
            case .connection(let new):
                if connection.map({ !Self.samePhase($0.phase, new.phase) }) ?? true {
                    event(WatchEvent(at: at, .connection(new.phase)))
                }
                connection = new
            case .queue(let pending, let dead):
                if pending.count != queue.pending.count { event(WatchEvent(at: at, .queue(depth: pending.count))) }
                queue = (pending, dead)
            }
        }

        private static func samePhase(_ a: ConnectionPhase, _ b: ConnectionPhase) -> Bool {
            switch (a, b) {
            case (.offline, .offline), (.connecting, .connecting), (.connected, .connected),
                (.waitingToRetry, .waitingToRetry):
                true
            default: false
            }
        }
    }
}
