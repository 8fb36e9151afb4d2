import PresenceModel
import RTDBCore

/// Something that happened to a watched database or this device (in the lab, or attached to a
/// project), as a timeline shows it.
public struct WatchEvent: Sendable, Equatable {
    /// What happened.
    public enum Kind: Sendable, Equatable {
        /// A device's link changed mode (`device` is a label such as `sam/phone`, or this device's).
        case link(device: String, mode: DeviceLink.Mode)
        /// This device's link switched conditions (as they read).
        case linkConditions(String)
        /// This device's connection changed phase.
        case connection(ConnectionPhase)
        /// The presence tree changed.
        case presence(PresenceChange)
        /// Many presence changes arrived together (a first load, a multi-path update), told once.
        case presenceBurst(PresenceBurst)
        /// This device's write queue changed depth.
        case queue(depth: Int)
        /// This device's clock was moved; `offset` is its offset from the machine's now.
        case clock(offset: Duration)
        /// This device's client noticed its wall clock step by `by` and moved its server-time
        /// offset at once.
        case clockJump(by: Duration)
        /// The server acknowledged this many of this device's writes.
        case acknowledged(count: Int)
        /// One of this device's transactions ended.
        case transaction(path: String, TransactionOutcome)
        /// The server refused one of this device's writes (in the refused state).
        case deadLetter(QueuedWrite)
        /// This device's credential changed (`expired` or signed in).
        case credential(expired: Bool)
        /// This device's credential was replaced before it expired; the new one expires at
        /// `expiresAt`.
        case credentialRenewed(expiresAt: UnixTime)
        /// A simulated device was added.
        case deviceAdded(String)
        /// A simulated device crashed.
        case deviceCrashed(String)
        /// Something a person should know (a failed action, say).
        case notice(String)
        /// A scenario file's step or expectation: its line, and whether it is good news (a
        /// passed expectation), bad (a failed one, a failed step) or neither (a step).
        case scenario(String, good: Bool?)
    }

    /// How a transaction ended.
    public enum TransactionOutcome: Sendable, Equatable {
        /// The server took it; `value` is what the counter holds now.
        case committed(value: Int)
        /// The update block gave up.
        case aborted
        /// It failed (too many retries, a refusal, or a disconnect that dropped it).
        case failed(String)
    }

    /// When it happened, on the simulation's wall clock (``SimulationOptions/wallClock``), as its
    /// snapshots are stamped.
    public var at: UnixTime
    /// What happened.
    public var kind: Kind

    /// Makes an event.
    public init(at: UnixTime, _ kind: Kind) {
        self.at = at
        self.kind = kind
    }
}
