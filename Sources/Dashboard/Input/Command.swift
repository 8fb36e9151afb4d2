/// What a key does: an effect on the simulation, or a change of the view.
public enum Command: Sendable, Equatable {
    /// Asks the simulation to do something.
    case effect(DashboardEffect)
    /// Focus the next / previous pane.
    case focusNext, focusPrevious
    /// Move the selection or scroll.
    case moveUp, moveDown, pageUp, pageDown, top, bottom
    /// Expand or collapse the selected user.
    case toggleExpanded
    /// Start typing a filter.
    case startFilter
    /// Clear the filter, close the help.
    case cancel
    /// The next theme.
    case nextTheme
    /// Show or hide the help.
    case toggleHelp
    /// Show or hide the Cache view (this device's disk cache).
    case toggleCache
    /// Show or hide the onDisconnect view (this device's operations and the server's verdict).
    case toggleOnDisconnect
    /// Show or hide the Rules view (the server's rules, their counts, the latest denials).
    case toggleRules
    /// Order the presence list by the next / previous key.
    case sortNext, sortPrevious
    /// Send the selected refused write again / forget it.
    case retryDeadLetter, discardDeadLetter
    /// Quit.
    case quit
}
