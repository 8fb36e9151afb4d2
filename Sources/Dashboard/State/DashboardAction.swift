import PresenceModel
import RTDBCore
import WatchModel

/// Everything that can happen to the dashboard: keys, size, the engine's snapshots and events.
public enum DashboardAction: Sendable {
    /// A key or mouse event.
    case key(KeyEvent)
    /// The terminal's new size.
    case resize(width: Int, height: Int)
    /// A fresh snapshot of the simulation (also the clock's tick: it carries the time).
    case snapshot(WatchSnapshot)
    /// This device's disk cache, read while the Cache view is open (nil: no persistence).
    case cache(CacheSummary?)
    /// This device's onDisconnect operations with the server's verdict, read while the view is open.
    case onDisconnect(OnDisconnectSummary)
    /// The server's rules with their counts and denials, read while the Rules view is open.
    case rules(RulesSummary)
    /// Something happened in the simulation.
    case event(WatchEvent)
    /// A replay's cursor moved: its status, and the recording's events up to the cursor, which
    /// take the place of the list.
    case replayed(ReplayStatus, events: [WatchEvent])
    /// The themes there are, and the one in use.
    case themes([String], current: String)
    /// A message for the person at the keyboard (a bad theme file, say).
    case notice(String, role: StyleRole)
}
