/// Which pane has the keys, and each pane's first visible row.
public struct PaneFocus: Sendable, Equatable {
    /// The focused pane.
    public var focused: Pane = .presence
    /// Each pane's first visible row.
    public var scroll: [Pane: Int] = [:]
}
