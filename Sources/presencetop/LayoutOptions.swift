import ArgumentParser
import Presence

/// Where and how the watched database keeps presence: the layout, its root, and the names of
/// its children when an app chose its own (all of them also `[options]` in the settings file).
struct LayoutOptions: ParsableArguments {
    @Option(help: "The presence layout: connections (users/<uid>/connections, as documented) or status (status/<uid>).")
    var layout = "connections"

    @Option(help: "Where the presence tree lives (default: users, or status for --layout status).")
    var presencePath: String?

    @Option(help: "connections layout: the child that lists a user's connections.")
    var connectionsChild = "connections"

    @Option(help: "connections layout: the child with the time of the last disconnect.")
    var lastOnlineChild = "lastOnline"

    @Option(help: "status layout: the child that holds the state.")
    var stateChild = "state"

    @Option(help: "status layout: the state's value when online.")
    var onlineValue = "online"

    @Option(help: "status layout: the child with the time of the last change.")
    var changedChild = "last_changed"

    func validate() throws {
        guard ["connections", "status"].contains(layout) else {
            throw ValidationError("--layout '\(layout)' is not connections or status")
        }
        for (name, value) in [
            ("--connections-child", connectionsChild), ("--last-online-child", lastOnlineChild),
            ("--state-child", stateChild), ("--changed-child", changedChild),
        ] {
            try DatabaseOption.key(value, name)
        }
        if let presencePath { try DatabaseOption.path(presencePath, "--presence-path") }
    }

    /// The layout the options describe.
    var presenceLayout: PresenceLayout {
        layout == "status"
            ? .status(state: stateChild, online: onlineValue, changed: changedChild)
            : .connections(connections: connectionsChild, lastOnline: lastOnlineChild)
    }

    /// The presence root: the option's, else the layout's own.
    var root: String { presencePath ?? presenceLayout.defaultRoot }
}
