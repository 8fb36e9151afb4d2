/// What a cell means: the renderer speaks only of roles, and a ``Theme`` gives each its colours.
public enum StyleRole: String, Sendable, CaseIterable, Hashable {
    /// Ordinary text.
    case text
    /// Secondary text: labels, units, hints.
    case muted
    /// A pane's border.
    case border
    /// The focused pane's border.
    case borderFocused = "border_focused"
    /// A pane's title.
    case title
    /// The focused pane's title.
    case titleFocused = "title_focused"
    /// A table's column headings.
    case header
    /// The selected row.
    case selected
    /// Good news: connected, online, acknowledged.
    case good
    /// Bad news: disconnected, offline, refused.
    case bad
    /// A warning: suspect, skew past a second, paused.
    case warn
    /// Emphasis: this device, counts.
    case accent
    /// A sparkline or history strip.
    case graph
    /// The key letters in the footer and the help.
    case key
    /// The footer's background and descriptions.
    case footer
    /// The help overlay.
    case overlay
    /// The filter line.
    case filter
}
