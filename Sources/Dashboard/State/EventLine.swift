import Foundation

/// One line of the events pane.
public struct EventLine: Sendable, Equatable {
    /// When it happened (the machine's clock, ms).
    public var at: Int64
    /// What happened.
    public var text: String
    /// How it is shown.
    public var role: StyleRole

    /// Makes a line.
    public init(at: Int64, text: String, role: StyleRole = .text) {
        self.at = at
        self.text = text
        self.role = role
    }
}
