import RTDBCore

/// One line of the events pane.
public struct EventLine: Sendable, Equatable {
    /// When it happened (the machine's clock).
    public var at: UnixTime
    /// What happened.
    public var text: String
    /// How it is shown.
    public var role: StyleRole
    /// Lines of one ongoing story (a device's attempts to reconnect) share a key: a new one
    /// replaces the newest line when that has the same key, so a long outage is one updating line.
    public var fold: String?

    /// Makes a line.
    public init(at: UnixTime, text: String, role: StyleRole = .text, fold: String? = nil) {
        self.at = at
        self.text = text
        self.role = role
        self.fold = fold
    }
}
