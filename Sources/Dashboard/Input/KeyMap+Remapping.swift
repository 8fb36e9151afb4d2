extension KeyMap {
    /// The key names a settings file may use besides single characters.
    static let namedKeys: [String: KeyEvent] = [
        "Tab": .tab, "S-Tab": .backTab, "Enter": .enter, "Esc": .escape, "Up": .up, "Down": .down,
        "PgUp": .pageUp, "PgDn": .pageDown, "Home": .home, "End": .end, "Space": .character(" "), "Left": .left,
        "Right": .right,
    ]

    /// The key a settings file names: one character, or a name of ``namedKeys``.
    public static func key(named name: String) -> KeyEvent? {
        if let named = namedKeys[name] { return named }
        return name.count == 1 ? .character(Character(name)) : nil
    }

    /// How a key is written in the footer and the help.
    static func name(of key: KeyEvent) -> String {
        if case .character(let character) = key { return character == " " ? "Space" : String(character) }
        return namedKeys.first { $0.value == key }?.key ?? "\(key)"
    }

    /// The bindings with keys moved as a settings file's `[keys]` table asks.
    ///
    /// Each entry moves what the key `from` did to the key `to` (`n = "N"`: the network on N,
    /// and n does nothing). A replay's key is named with `replay ` before it (`"replay -" = "_"`); it may take a key
    /// that something else does outside a replay.
    ///
    /// - Throws: The problem, naming the key: one that is no key, one nothing is bound to, one
    ///   that something else already uses, or a key moved twice.
    public static func bindings(remapping moves: [(from: String, to: String)]) throws(KeyRemapError) -> [KeyBinding] {
        var bindings = Self.bindings
        var moved: Set<KeyMove> = []
        for (number, (fromName, toName)) in moves.enumerated() {
            func refuse(_ key: String, _ problem: String) -> KeyRemapError {
                KeyRemapError(key: key, problem: problem, index: number)
            }
            let mode: KeyMode = fromName.hasPrefix(Self.replayPrefix) ? .replaying : .always
            let bareName = mode == .replaying ? String(fromName.dropFirst(Self.replayPrefix.count)) : fromName
            guard let from = key(named: bareName) else { throw refuse(fromName, "is not a key") }
            guard let to = key(named: toName) else { throw refuse(toName, "is not a key") }
            guard !moved.contains(KeyMove(key: from, mode: mode)) else { throw refuse(fromName, "is moved twice") }
            guard let index = bindings.firstIndex(where: { $0.mode == mode && $0.keys.contains(from) }) else {
                throw refuse(fromName, "is not bound to anything")
            }
            if let other = bindings.first(where: { $0.mode == mode && $0.keys.contains(to) }),
                other.keys != bindings[index].keys
            {
                throw refuse(toName, "already does '\(other.help)'; move it first")
            }
            moved.insert(KeyMove(key: from, mode: mode))
            bindings[index].keys = bindings[index].keys.map { $0 == from ? to : $0 }
            bindings[index].label = bindings[index].keys.filter(Self.isTyped).map(Self.name(of:)).joined(separator: "/")
        }
        return bindings
    }

    /// How a settings file names a replay's key: `replay Space`.
    static let replayPrefix = "replay "

    /// A key moved, in its mode.
    private struct KeyMove: Hashable {
        var key: KeyEvent
        var mode: KeyMode
    }

    /// Keys a person types (not the mouse wheel), for labels.
    private static func isTyped(_ key: KeyEvent) -> Bool {
        switch key {
        case .wheelUp, .wheelDown, .click: return false
        default: return true
        }
    }
}

/// Why a settings file's key move was refused.
public struct KeyRemapError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The key as the file names it.
    public var key: String
    /// What is wrong with it.
    public var problem: String
    /// Which move it was (from 0), when it came from a list of them.
    public var index: Int?

    /// Makes an error.
    public init(key: String, problem: String, index: Int? = nil) {
        self.key = key
        self.problem = problem
        self.index = index
    }

    /// `'N' is not a key`.
    public var description: String { "key '\(key)' \(problem)" }
}
