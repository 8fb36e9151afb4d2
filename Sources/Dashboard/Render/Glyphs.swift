/// The characters the dashboard draws with: Unicode box drawing and blocks, or plain ASCII when
/// the locale is not UTF-8.
public struct Glyphs: Sendable, Equatable {
    let cornerTL: Character
    let cornerTR: Character
    let cornerBL: Character
    let cornerBR: Character
    /// A horizontal line.
    public let horizontal: Character
    /// A vertical line.
    public let vertical: Character
    /// Sparkline levels, lowest first.
    public let levels: [Character]
    /// Connected / online.
    public let on: Character
    /// Disconnected / offline.
    public let off: Character
    /// In between (connecting, suspect).
    public let partial: Character
    /// A warning.
    public let warning: Character
    /// Marks this device's row.
    public let mine: Character
    /// Text cut short.
    public let ellipsis: Character
    /// Marks an expanded user's connection rows.
    public let expanded: Character
    /// A minus sign.
    public let minus: String
    /// Plus or minus.
    public let plusMinus: String
    /// The arrow in "offline ↔ up".
    public let toggle: String

    /// Box drawing with rounded corners, eighth blocks, ● ○ ◐ ⚠.
    public static let unicode = Glyphs(
        cornerTL: "╭", cornerTR: "╮", cornerBL: "╰", cornerBR: "╯", horizontal: "─", vertical: "│",
        levels: ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"], on: "●", off: "○", partial: "◐", warning: "⚠",
        mine: "◂", ellipsis: "…", expanded: "▾", minus: "−", plusMinus: "±", toggle: "↔")

    /// Plain ASCII for terminals and locales without UTF-8.
    public static let ascii = Glyphs(
        cornerTL: "+", cornerTR: "+", cornerBL: "+", cornerBR: "+", horizontal: "-", vertical: "|",
        levels: ["_", ".", ".", "-", "-", "=", "=", "#"], on: "*", off: "o", partial: "~", warning: "!",
        mine: "<", ellipsis: "~", expanded: "v", minus: "-", plusMinus: "+/-", toggle: "<->")
}

extension Glyphs {
    /// Non-ASCII characters the dashboard's own text uses, with their ASCII stand-ins.
    static let asciiFolds: [Character: String] = [
        "↔": "<->", "↑": "^", "↓": "v", "−": "-", "±": "+/-", "…": "~", "→": "->", "×": "x", "·": "-", "●": "*",
        "○": "o", "◐": "~", "⚠": "!", "◂": "<", "▸": ">", "▾": "v", "≥": ">=", "≤": "<=", "µ": "u",
    ]

    /// `text` as this glyph set can show it: unchanged in Unicode; in ASCII, known symbols folded
    /// to stand-ins and anything else non-ASCII shown as `?`.
    public func fold(_ text: String) -> String {
        guard self == .ascii, !text.allSatisfy(\.isASCII) else { return text }
        var folded = ""
        for character in text {
            if character.isASCII {
                folded.append(character)
            } else {
                folded += Glyphs.asciiFolds[character] ?? "?"
            }
        }
        return folded
    }
}
