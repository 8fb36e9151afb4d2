/// How many colours a terminal shows, from none to 24-bit.
public enum ColorCapability: String, Sendable, CaseIterable {
    /// Attributes only (`NO_COLOR`, `TERM=dumb`, or no colour support).
    case monochrome
    /// The 8 basic colours.
    case ansi8
    /// The 16 ANSI colours.
    case ansi16
    /// The xterm 256-colour palette.
    case palette256
    /// Any RGB colour (terminfo with the `RGB` flag, such as `xterm-direct`).
    case direct
}

/// A colour as a terminal takes it.
public enum TerminalColor: Sendable, Hashable {
    /// The terminal's own.
    case terminalDefault
    /// A palette index (0–255).
    case index(Int)
    /// A 24-bit value (`0xRRGGBB`).
    case rgb(Int)
}

/// Maps theme colours down the ladder of terminal capabilities: direct RGB, the 256-colour
/// palette, 16 or 8 ANSI colours, none.
public enum ColorLadder {
    /// The terminal colour for a theme colour on a terminal with `capability` (nil: monochrome).
    public static func terminalColor(_ color: ThemeColor, capability: ColorCapability) -> TerminalColor? {
        switch (color, capability) {
        case (_, .monochrome): return nil
        case (.terminalDefault, _): return .terminalDefault
        case (.ansi(let index), .ansi8): return .index(index % 8)
        case (.ansi(let index), _): return .index(index)
        case (.rgb(let red, let green, let blue), .direct):
            // Values 0–7 mean palette colours on direct terminals: nudge pure black off them.
            let value = Int(red) << 16 | Int(green) << 8 | Int(blue)
            return .rgb(value < 8 ? 0x010101 : value)
        case (.rgb(let red, let green, let blue), .palette256):
            return .index(index256(red: red, green: green, blue: blue))
        case (.rgb(let red, let green, let blue), .ansi16):
            return .index(nearestANSI(red: red, green: green, blue: blue, count: 16))
        case (.rgb(let red, let green, let blue), .ansi8):
            return .index(nearestANSI(red: red, green: green, blue: blue, count: 8))
        }
    }

    /// The nearest xterm-256 index, by btop's rule.
    ///
    /// The greyscale ramp (232–255) when the three channels are the same step of 1/11, else the
    /// 6×6×6 cube (16–231).
    public static func index256(red: UInt8, green: UInt8, blue: UInt8) -> Int {
        let (r, g, b) = (Double(red), Double(green), Double(blue))
        let grey = (r / 11).rounded()
        if grey == (g / 11).rounded() && grey == (b / 11).rounded() {
            return 232 + min(23, Int(grey))
        }
        return 16 + 36 * Int((r / 51).rounded()) + 6 * Int((g / 51).rounded()) + Int((b / 51).rounded())
    }

    /// The xterm default values of the 16 ANSI colours.
    static let ansiValues: [(Int, Int, Int)] = [
        (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205), (0, 205, 205),
        (229, 229, 229), (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0), (92, 92, 255), (255, 0, 255),
        (0, 255, 255), (255, 255, 255),
    ]

    /// The nearest of the first `count` ANSI colours (8 or 16), by squared distance.
    public static func nearestANSI(red: UInt8, green: UInt8, blue: UInt8, count: Int) -> Int {
        let candidates = ansiValues.prefix(count).enumerated()
        let best = candidates.min { lhs, rhs in
            distance(lhs.element, red, green, blue) < distance(rhs.element, red, green, blue)
        }
        return best?.offset ?? 7
    }

    private static func distance(_ value: (Int, Int, Int), _ red: UInt8, _ green: UInt8, _ blue: UInt8) -> Int {
        let (dr, dg, db) = (value.0 - Int(red), value.1 - Int(green), value.2 - Int(blue))
        return dr * dr + dg * dg + db * db
    }
}
