/// How one role looks: colours and attributes.
public struct Style: Sendable, Hashable {
    /// The foreground colour.
    public var foreground: ThemeColor
    /// The background colour.
    public var background: ThemeColor
    /// Bold.
    public var bold: Bool
    /// Dim.
    public var dim: Bool
    /// Underlined.
    public var underline: Bool
    /// Foreground and background swapped (what mono themes mark selection with).
    public var reverse: Bool

    /// Makes a style.
    public init(
        foreground: ThemeColor = .terminalDefault, background: ThemeColor = .terminalDefault, bold: Bool = false,
        dim: Bool = false, underline: Bool = false, reverse: Bool = false
    ) {
        self.foreground = foreground
        self.background = background
        self.bold = bold
        self.dim = dim
        self.underline = underline
        self.reverse = reverse
    }

    /// The same attributes without colours (for `NO_COLOR` and monochrome terminals).
    public var withoutColors: Style {
        Style(bold: bold, dim: dim, underline: underline, reverse: reverse)
    }
}
