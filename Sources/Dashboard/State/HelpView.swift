/// The help over the panes: whether it is shown, and its first visible key binding (it scrolls
/// where the terminal is short).
public struct HelpView: Sendable, Equatable {
    /// Whether the help is shown.
    public var isShown = false
    /// The first key binding shown.
    public var scroll = 0
}
