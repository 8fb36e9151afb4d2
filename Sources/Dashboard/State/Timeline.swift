import RTDBCore

/// What the Events pane and the status line tell: the timeline, newest last, why the last
/// connection attempt failed (for the folded reconnect line), and the notice shown for a few
/// seconds.
public struct Timeline: Sendable, Equatable {
    /// The events, newest last (at most ``DashboardState/eventCapacity``).
    public var events: [EventLine] = []
    /// Why this device's last connection attempt failed, for the folded reconnect line.
    public var lastRetryReason: String?
    /// A message shown above the footer for a few seconds.
    public var notice: EventLine? { didSet { noticeSince = nil } }
    /// When the notice's few seconds began: the first snapshot after it was made (nil until
    /// then), so that a notice made while snapshots are late (a loaded machine, a slow source)
    /// is still shown for its whole lifetime.
    public var noticeSince: UnixTime?

    /// Nothing told yet.
    public init() {}
}
