import CNcursesw
import Dashboard

/// Each role's ncurses attributes and colour pair for one theme on one terminal.
struct CursesPalette {
    private var byRole: [StyleRole: (attr_t, Int32)] = [:]

    init(theme: Theme, capability: ColorCapability, pairLimit: Int) {
        var pairs: [PairKey: Int32] = [:]
        for role in StyleRole.allCases {
            let style = capability == .monochrome ? theme[role].withoutColors : theme[role]
            var attributes = CNcurses_A_NORMAL()
            if style.bold { attributes |= CNcurses_A_BOLD() }
            if style.dim { attributes |= CNcurses_A_DIM() }
            if style.underline { attributes |= CNcurses_A_UNDERLINE() }
            if style.reverse { attributes |= CNcurses_A_REVERSE() }
            let key = PairKey(
                foreground: ColorLadder.terminalColor(style.foreground, capability: capability),
                background: ColorLadder.terminalColor(style.background, capability: capability))
            var pair: Int32 = 0
            if key.foreground != nil || key.background != nil, key != PairKey(foreground: nil, background: nil) {
                if let existing = pairs[key] {
                    pair = existing
                } else if pairs.count + 1 < pairLimit {
                    pair = Int32(pairs.count + 1)
                    pairs[key] = pair
                    init_extended_pair(pair, Self.number(key.foreground), Self.number(key.background))
                }
            }
            byRole[role] = (attributes, pair)
        }
    }

    /// The attributes and pair number of a role.
    func attributes(for role: StyleRole) -> (attr_t, Int32) {
        byRole[role] ?? (CNcurses_A_NORMAL(), 0)
    }

    private struct PairKey: Hashable {
        var foreground: TerminalColor?
        var background: TerminalColor?
    }

    private static func number(_ color: TerminalColor?) -> Int32 {
        switch color {
        case nil, .terminalDefault: -1
        case .index(let index): Int32(index)
        case .rgb(let value): Int32(value)
        }
    }
}
