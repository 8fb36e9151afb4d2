/// The dashboard's panes, in focus order.
public enum Pane: String, Sendable, CaseIterable, Hashable {
    /// This device's connection.
    case connection
    /// Clock skew.
    case clock
    /// Everyone's presence.
    case presence
    /// This device's pending writes.
    case pending
    /// The timeline of events.
    case events

    /// The pane's title (the Presence and Pending writes titles add counts).
    public var title: String {
        switch self {
        case .connection: "Connection"
        case .clock: "Clock skew"
        case .presence: "Presence"
        case .pending: "Pending writes"
        case .events: "Events"
        }
    }
}
