import Foundation
import RTDBCore

/// The help over the panes: whether it is shown, and its first visible key binding (it scrolls
/// where the terminal is short).
public struct HelpView: Sendable, Equatable {
    /// Whether the help is shown.
    public var isShown = false
    /// The first key binding shown.
    public var scroll = 0
}

/// The themes there are, and the one in use.
public struct ThemeChoice: Sendable, Equatable {
    /// The themes there are.
    public var names = ["default"]
    /// The theme in use.
    public var current = "default"
}

/// What the Pending writes pane's keys act on: the refused write `R` and `X` take, and when `r`
/// last asked to be pressed again (on a server whose rules are not known).
public struct PendingPane: Sendable, Equatable {
    /// The refused write `R` and `X` act on (nil: the newest).
    public var selectedDeadLetter: Int?
    /// When `r` last asked to be pressed again.
    public var confirmationAskedAt: UnixTime?
}

/// Which pane has the keys, and each pane's first visible row.
public struct PaneFocus: Sendable, Equatable {
    /// The focused pane.
    public var focused: Pane = .presence
    /// Each pane's first visible row.
    public var scroll: [Pane: Int] = [:]
}

/// Whether the loop is to end, and whether because of Ctrl-C (the process then exits 130, as
/// after SIGINT).
public struct ExitRequest: Sendable, Equatable {
    /// Set by `q`: the loop ends.
    public var isQuitting = false
    /// Whether it quits because of Ctrl-C.
    public var isInterrupted = false
}

/// How the user has it: the key bindings in force (the defaults, with a settings file's moves),
/// and the time zone times of day are shown in.
public struct Preferences: Sendable, Equatable {
    /// The key bindings in force.
    public var bindings: [KeyBinding] = KeyMap.bindings
    /// How times of day are shown.
    public var timeZone: TimeZone = .current
}
