import Foundation

/// A colour as a theme names it: the terminal's default, one of the 16 ANSI colours (which follow
/// the user's palette), or an exact RGB value (mapped down on terminals with fewer colours).
public enum ThemeColor: Sendable, Hashable, CustomStringConvertible {
    /// The terminal's own foreground or background (keeps transparency).
    case terminalDefault
    /// ANSI colour 0–15 (`black`… `white`, `bright_black`… `bright_white`).
    case ansi(Int)
    /// An exact colour.
    case rgb(red: UInt8, green: UInt8, blue: UInt8)

    /// The ANSI names, in palette order.
    public static let ansiNames = [
        "black", "red", "green", "yellow", "blue", "magenta", "cyan", "white",
        "bright_black", "bright_red", "bright_green", "bright_yellow", "bright_blue", "bright_magenta", "bright_cyan",
        "bright_white",
    ]

    /// Reads `default`, an ANSI name, or `#RRGGBB`; nil if it is none of them.
    public init?(parsing text: String) {
        let value = text.trimmingCharacters(in: .whitespaces).lowercased()
        if value == "default" || value.isEmpty {
            self = .terminalDefault
        } else if let index = ThemeColor.ansiNames.firstIndex(of: value.replacingOccurrences(of: "-", with: "_")) {
            self = .ansi(index)
        } else if value.hasPrefix("#"), value.count == 7, let number = UInt32(value.dropFirst(), radix: 16) {
            self = .rgb(red: UInt8(number >> 16), green: UInt8((number >> 8) & 0xFF), blue: UInt8(number & 0xFF))
        } else {
            return nil
        }
    }

    /// As a theme file writes it.
    public var description: String {
        switch self {
        case .terminalDefault: "default"
        case .ansi(let index): ThemeColor.ansiNames[index]
        case .rgb(let red, let green, let blue):
            "#" + [red, green, blue].map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
        }
    }
}
