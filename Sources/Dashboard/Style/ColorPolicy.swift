/// Which colours to use: the one home of the `NO_COLOR` and capability rules.
public enum ColorPolicy {
    /// Whether colour may be used at all: not when `NO_COLOR` is set and non-empty (no-color.org),
    /// nor on `TERM=dumb`.
    public static func allowsColor(environment: [String: String]) -> Bool {
        (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
    }

    /// The capability of a terminal that reports `colors` colours (terminfo's `colors`) and, for
    /// direct colour, the `RGB` flag.
    public static func capability(environment: [String: String], colors: Int, hasRGB: Bool) -> ColorCapability {
        guard allowsColor(environment: environment) else { return .monochrome }
        switch colors {
        case (1 << 24)... where hasRGB: return .direct
        case 256...: return .palette256
        case 16...: return .ansi16
        case 8...: return .ansi8
        default: return .monochrome
        }
    }
}
