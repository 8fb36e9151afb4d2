/// The default theme's text, compiled in so the binary works without `themes/`.
enum BuiltInTheme {
    /// Must equal `themes/default.toml` (a test checks).
    static let defaultTOML = #"""
        # presencetop theme: default (dark terminals; also compiled into the binary)
        # Colours: "default" (the terminal's own), an ANSI name such as "red" or "bright_black",
        # or "#RRGGBB" (mapped to the nearest of 256 or 16 colours when the terminal has no more).
        # A role is a colour (its foreground) or a table: fg, bg, bold, dim, underline, reverse.
        name = "default"

        [roles]
        text = "default"
        muted = "#7f8c98"
        border = "#4c566a"
        border_focused = { fg = "#88c0d0", bold = true }
        title = { fg = "#8fbcbb", bold = true }
        title_focused = { fg = "#88c0d0", bold = true, underline = true }
        header = { fg = "#81a1c1", bold = true }
        selected = { fg = "#eceff4", bg = "#3b4252", bold = true }
        good = "#a3be8c"
        bad = { fg = "#bf616a", bold = true }
        warn = { fg = "#ebcb8b", bold = true }
        accent = "#b48ead"
        graph = "#81a1c1"
        key = { fg = "#88c0d0", bold = true }
        footer = "#d8dee9"
        overlay = { fg = "#eceff4", bg = "#2e3440" }
        filter = { fg = "#ebcb8b", underline = true }

        """#
}
