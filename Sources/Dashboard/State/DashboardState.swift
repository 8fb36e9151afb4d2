import Foundation
import PresenceModel
import RTDBCore
import WatchModel

/// Everything the screen shows, as one value: the reducer changes it, the renderer draws it, and
/// the loop redraws only when it changed.
public struct DashboardState: Sendable, Equatable {
    /// Columns.
    public var width: Int
    /// Rows.
    public var height: Int
    /// The simulation as last seen.
    public var snapshot: WatchSnapshot?
    /// Now, on the machine's clock: the last snapshot's time.
    public var now = UnixTime.epoch
    /// Now on this device's clock (moved by `+`/`-`), which stamps its writes and its connection.
    public var deviceNow: UnixTime { now + (snapshot?.thisDevice?.clockOffset ?? .zero) }
    /// Which pane has the keys, and each pane's first visible row.
    public var panes = PaneFocus()
    /// The Presence pane's selection, filter and order.
    public var presence = PresencePane()
    /// What the Pending writes pane's keys act on.
    public var pending = PendingPane()
    /// The help over the panes.
    public var help = HelpView()
    /// The themes there are, and the one in use.
    public var themes = ThemeChoice()
    /// Whether the loop is to end.
    public var exit = ExitRequest()
    /// The key bindings in force and the time zone.
    public var preferences = Preferences()
    /// The view shown over the panes, if any, and what it shows.
    public var views = OverlayViews()
    /// A replay's time cursor and keys (nil: live): the cursor on the status line, its keys in
    /// the footer in place of the live session's.
    public var replay: ReplayStatus?

    /// A view shown over the panes, taking the keys while open.
    public enum Overlay: Sendable, Equatable {
        /// This device's disk cache (C).
        case cache
        /// This device's onDisconnect operations and whether they would run (O).
        case onDisconnect
        /// The server's rules with their evaluation counts, and the latest denials (S).
        case rules
    }
    /// What the sparklines draw, a sample a second.
    public var samples = Samples()
    /// The timeline and the notice.
    public var timeline = Timeline()
    /// How long a second `r` counts as the answer.
    public static let confirmationWindow: Duration = .seconds(6)
    /// How long a notice stays on the status line.
    public static let noticeLifetime: Duration = .seconds(6)

    /// How many events the timeline keeps.
    public static let eventCapacity = 500

    /// Makes the state of a dashboard `width` × `height` with nothing seen yet.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// The users the filter lets through, in the order chosen with < and >.
    public var visibleUsers: IndexedUsers { currentPresence.shown }

    /// The presence index for this state's list, order and filter: the reducer's, which keeps it
    /// current; worked out here only for a state changed by hand.
    var currentPresence: PresenceIndex {
        presence.index.updated(to: snapshot?.users ?? [], sort: presence.sort, filter: presence.filter)
    }

    /// This state kept to tell whether a later one needs a new frame: it equals what this state
    /// equals, its presence index reduced to its version (``PresenceIndex/versionOnly``), so
    /// holding it shares none of a million users' entries and the next change writes them in
    /// place instead of into copies.
    public var drawnMark: DashboardState {
        var mark = self
        mark.presence.index = presence.index.versionOnly
        return mark
    }

    /// The layout for the current size.
    public var layout: DashboardLayout { DashboardLayout(width: width, height: height) }
}

extension DashboardState {
    /// The bindings in force, as the help lists them: while a recording replays, its own keys
    /// first, then the others.
    public var bindingsInForce: [KeyBinding] {
        let always = preferences.bindings.filter { $0.mode == .always }
        return replay == nil ? always : preferences.bindings.filter { $0.mode == .replaying } + always
    }

    /// How many key bindings the help overlay shows at once at this size.
    public var helpCapacity: Int {
        // The box takes two rows and its closing line one; it leaves a row above and below.
        max(1, min(height - 2, bindingsInForce.count + 3) - 3)
    }

    /// The largest useful help scroll (``HelpView/scroll``).
    public var maxHelpScroll: Int { max(0, bindingsInForce.count - helpCapacity) }
}

extension DashboardState {
    /// The refused write `R` and `X` act on: the selected one while it is listed, else the newest.
    public var currentDeadLetter: Int? {
        let letters = snapshot?.thisDevice?.deadLetters ?? []
        if let selected = pending.selectedDeadLetter, letters.contains(where: { $0.id == selected }) { return selected }
        return letters.last?.id
    }
}
