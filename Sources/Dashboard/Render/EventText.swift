import PresenceModel
import RTDBCore
import WatchModel

/// How an event reads in the timeline.
enum EventText {
    /// The line for an event, with its role; nil for events too frequent to list (queue depth).
    static func describe(_ kind: WatchEvent.Kind) -> (String, StyleRole)? {
        switch kind {
        case .link(let device, let mode):
            let what: String
            switch mode {
            case .up: what = "network back"
            case .offline: what = "network lost (reset: both ends know at once)"
            case .blackhole: what = "network lost (blackhole: only the server's heartbeat notices)"
            }
            return ("\(device)  \(what)", mode == .up ? .good : .warn)
        case .linkConditions(let conditions):
            return ("this device  link now \(conditions)", .text)
        case .connection(let phase):
            switch phase {
            case .connected(let session): return ("this device  connected (session \(session.prefix(8)))", .good)
            case .connecting(let attempt):
                return ("this device  connecting\(attempt > 1 ? " (attempt \(attempt))" : "")", .muted)
            case .waitingToRetry(let attempt, _, let reason):
                return ("this device  disconnected: \(reason); attempt \(attempt) soon", .bad)
            case .offline: return ("this device  offline", .bad)
            }
        case .presence(let change):
            switch change {
            case .userOnline, .deviceConnected: return ("\(change)", .good)
            case .userOffline, .deviceDisconnected: return ("\(change)", .muted)
            }
        case .presenceBurst(let burst):
            return ("\(burst)", burst.wentOffline > burst.cameOnline ? .muted : .good)
        case .queue:
            return nil
        case .clockJump(let step):
            return (
                "this device  clock jump of \(Format.signedMilliseconds(step)) noticed: server time re-estimated at once",
                .warn
            )
        case .clock(let offset):
            return (
                "this device  clock moved: now \(Format.signedMilliseconds(offset)) from the machine's", .warn
            )
        case .acknowledged(let count):
            return ("this device  \(count) write\(count == 1 ? "" : "s") acknowledged", .good)
        case .transaction(let path, let outcome):
            switch outcome {
            case .committed(let value): return ("this device  transaction on \(path) committed: \(value)", .good)
            case .aborted: return ("this device  transaction on \(path) aborted", .muted)
            case .failed(let reason): return ("this device  transaction on \(path) failed: \(reason)", .bad)
            }
        case .deadLetter(let letter):
            let (status, reason) = letter.refusal ?? ("refused", "")
            return ("this device  write \(letter.id) refused: \(status) \(reason)", .bad)
        case .credential(let expired):
            return expired
                ? ("this device  credential expired: writes pause until a new one", .warn)
                : ("this device  signed in again", .good)
        case .credentialRenewed:
            return ("this device  credential renewed before it expired", .muted)
        case .deviceAdded(let label):
            return ("\(label)  added", .good)
        case .deviceCrashed(let label):
            return ("\(label)  crashed (no goodbye)", .bad)
        case .notice(let text):
            return (text, .warn)
        case .scenario(let text, let good):
            return (text, good.map { $0 ? .good : .bad } ?? .accent)
        }
    }
}
