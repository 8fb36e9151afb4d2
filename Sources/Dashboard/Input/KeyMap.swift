/// One key binding: the keys, how the footer and the help name it, and what it does.
public struct KeyBinding: Sendable, Equatable {
    /// The keys that trigger it.
    public var keys: [KeyEvent]
    /// How the keys are written (`n`, `+/-`, `Tab`).
    public var label: String
    /// The footer's word for it, when it has a place there.
    public var hint: String?
    /// The help's sentence.
    public var help: String
    /// What it does.
    public var command: Command
    /// When it is in force.
    public var mode: KeyMode = .always
}

/// The one table of keys: the dispatcher, the footer and the `?` help all read it, so they
/// cannot disagree.
public enum KeyMap {
    /// Every binding, in the order the footer and the help list them.
    public static let bindings: [KeyBinding] =
        [
            KeyBinding(
                keys: [.character("n")], label: "n", hint: "network", help: "this device's network: offline ↔ up",
                command: .effect(.toggleNetwork)),
            KeyBinding(
                keys: [.character("b")], label: "b", hint: "blackhole",
                help: "this device's network: blackhole ↔ up (only the heartbeat notices)",
                command: .effect(.toggleBlackhole)),
            KeyBinding(
                keys: [.character("l")], label: "l", hint: "latency", help: "this device's link: slow (400 ms) ↔ usual",
                command: .effect(.toggleLatency)),
            KeyBinding(
                keys: [.character("w")], label: "w", hint: "write", help: "queue one write from this device",
                command: .effect(.queueWrites(1))),
            KeyBinding(
                keys: [.character("W")], label: "W", hint: "×100", help: "queue 100 writes",
                command: .effect(.queueWrites(100))),
            KeyBinding(
                keys: [.character("t")], label: "t", hint: "txn", help: "run a transaction (a counter +1)",
                command: .effect(.runTransaction)),
            KeyBinding(
                keys: [.character("+")], label: "+", hint: "clock", help: "this device's clock 1 s ahead",
                command: .effect(.shiftClock(by: .seconds(1)))),
            KeyBinding(
                keys: [.character("-")], label: "-", hint: "clock", help: "this device's clock 1 s behind",
                command: .effect(.shiftClock(by: .seconds(-1)))),
            KeyBinding(
                keys: [.character("a")], label: "a", hint: "token",
                help: "expire this device's credential (writes pause) / sign in again",
                command: .effect(.toggleCredential)),
            KeyBinding(
                keys: [.character("r")], label: "r", hint: "forbidden",
                help: "another user's presence: refused by rules (elsewhere: asks first)",
                command: .effect(.writeForbidden)),
            KeyBinding(
                keys: [.character("R")], label: "R", hint: nil,
                help: "send the selected refused write again (↑/↓ in Pending)", command: .retryDeadLetter),
            KeyBinding(
                keys: [.character("X")], label: "X", hint: nil, help: "forget the selected refused write",
                command: .discardDeadLetter),
            KeyBinding(
                keys: [.character("c")], label: "c", hint: nil, help: "reconnect now (skip the back-off)",
                command: .effect(.reconnectNow)),
            KeyBinding(
                keys: [.character("d")], label: "d", hint: "add", help: "add a simulated device",
                command: .effect(.addDevice)),
            KeyBinding(
                keys: [.character("x")], label: "x", hint: "crash",
                help: "crash a random simulated device (no goodbye)",
                command: .effect(.crashDevice)),
            KeyBinding(keys: [.tab], label: "Tab", hint: nil, help: "focus the next pane", command: .focusNext),
            KeyBinding(
                keys: [.backTab], label: "S-Tab", hint: nil, help: "focus the previous pane", command: .focusPrevious),
            KeyBinding(
                keys: [.up, .character("k"), .wheelUp], label: "↑/k", hint: nil, help: "move up", command: .moveUp),
            KeyBinding(
                keys: [.down, .character("j"), .wheelDown], label: "↓/j", hint: nil, help: "move down",
                command: .moveDown),
            KeyBinding(keys: [.pageUp], label: "PgUp", hint: nil, help: "a page up", command: .pageUp),
            KeyBinding(keys: [.pageDown], label: "PgDn", hint: nil, help: "a page down", command: .pageDown),
            KeyBinding(keys: [.home, .character("g")], label: "g", hint: nil, help: "to the top", command: .top),
            KeyBinding(keys: [.end, .character("G")], label: "G", hint: nil, help: "to the bottom", command: .bottom),
            KeyBinding(
                keys: [.enter], label: "Enter", hint: nil, help: "expand or collapse the selected user",
                command: .toggleExpanded),
            KeyBinding(
                keys: [.character(">")], label: ">", hint: nil,
                help: "sort users: name, state, connections, last online",
                command: .sortNext),
            KeyBinding(
                keys: [.character("<")], label: "<", hint: nil, help: "sort users the other way round",
                command: .sortPrevious),
            KeyBinding(
                keys: [.character("/")], label: "/", hint: "filter", help: "filter users (Esc clears)",
                command: .startFilter),
            KeyBinding(
                keys: [.escape], label: "Esc", hint: nil, help: "clear the filter, close the help", command: .cancel),
            KeyBinding(keys: [.character("T")], label: "T", hint: "theme", help: "next theme", command: .nextTheme),
            KeyBinding(
                keys: [.character("C")], label: "C", hint: nil,
                help: "the disk cache: sizes, tracked queries, next prune",
                command: .toggleCache),
            KeyBinding(
                keys: [.character("O")], label: "O", hint: nil, help: "onDisconnect: what the server would run now",
                command: .toggleOnDisconnect),
            KeyBinding(
                keys: [.character("S")], label: "S", hint: nil,
                help: "security rules: how often each held, the latest denials", command: .toggleRules),
            KeyBinding(keys: [.character("?")], label: "?", hint: "help", help: "this help", command: .toggleHelp),
            KeyBinding(
                keys: [.character("q"), .interrupt], label: "q", hint: "quit", help: "quit (also Ctrl-C)",
                command: .quit),
        ] + replayBindings

    /// A replay's keys: in force only while a recording plays back, before the others.
    static let replayBindings: [KeyBinding] = [
        KeyBinding(
            keys: [.character(" ")], label: "Space", hint: "play/pause",
            help: "replay: play or pause (at the end, from the start)", command: .effect(.replay(.playPause)),
            mode: .replaying),
        KeyBinding(
            keys: [.left], label: "←", hint: "change", help: "replay: to the previous change",
            command: .effect(.replay(.previousChange)), mode: .replaying),
        KeyBinding(
            keys: [.right], label: "→", hint: "change", help: "replay: to the next change",
            command: .effect(.replay(.nextChange)), mode: .replaying),
        KeyBinding(
            keys: [.character("[")], label: "[", hint: "10 s", help: "replay: 10 s back",
            command: .effect(.replay(.back)), mode: .replaying),
        KeyBinding(
            keys: [.character("]")], label: "]", hint: "10 s", help: "replay: 10 s on",
            command: .effect(.replay(.forward)), mode: .replaying),
        KeyBinding(
            keys: [.home], label: "Home", hint: "ends", help: "replay: to the start",
            command: .effect(.replay(.start)), mode: .replaying),
        KeyBinding(
            keys: [.end], label: "End", hint: "ends", help: "replay: to the end", command: .effect(.replay(.end)),
            mode: .replaying),
        KeyBinding(
            keys: [.character("-")], label: "-", hint: "speed", help: "replay: half as fast",
            command: .effect(.replay(.slower)), mode: .replaying),
        KeyBinding(
            keys: [.character("+"), .character("=")], label: "+", hint: "speed", help: "replay: twice as fast",
            command: .effect(.replay(.faster)), mode: .replaying),
    ]

    /// What a key does, if anything: while `replaying`, a replay's binding of the key first.
    public static func command(
        for key: KeyEvent, in bindings: [KeyBinding] = KeyMap.bindings, replaying: Bool = false
    ) -> Command? {
        if replaying, let binding = bindings.first(where: { $0.mode == .replaying && $0.keys.contains(key) }) {
            return binding.command
        }
        return bindings.first { $0.mode == .always && $0.keys.contains(key) }?.command
    }
}
