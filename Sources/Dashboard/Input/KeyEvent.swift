/// A key or mouse event, as the backend decodes it.
public enum KeyEvent: Sendable, Hashable {
    /// A character key (`n`, `W`, `?`, `/`…).
    case character(Character)
    /// An arrow key.
    case up, down, left, right
    /// Page keys.
    case pageUp, pageDown, home, end
    /// Tab and Shift-Tab.
    case tab, backTab
    /// Enter, Escape, Backspace.
    case enter, escape, backspace
    /// Ctrl-C (also delivered as SIGINT).
    case interrupt
    /// A mouse click at a column and row.
    case click(x: Int, y: Int)
    /// The mouse wheel.
    case wheelUp, wheelDown
}
