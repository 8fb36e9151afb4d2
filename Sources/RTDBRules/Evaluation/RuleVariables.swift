/// The values of the `$wildcards` on the way down to a rule, in the order they were bound.
///
/// A rule names a wildcard by its position among the wildcards above it (resolved when the rules
/// are read), so a lookup is an index; the first four live inline, so a walk binds them without
/// allocating.
struct RuleVariables {
    private var inline: (String, String, String, String) = ("", "", "", "")
    private var overflow: [String] = []
    /// How many are bound.
    private(set) var count = 0

    /// Binds the next wildcard down to `value` (a key of the data).
    mutating func bind(_ value: String) {
        switch count {
        case 0: inline.0 = value
        case 1: inline.1 = value
        case 2: inline.2 = value
        case 3: inline.3 = value
        default: overflow.append(value)
        }
        count += 1
    }

    /// The value of the wildcard at `position` (0 for the topmost), or nil if not bound.
    subscript(position: Int) -> String? {
        guard position >= 0, position < count else { return nil }
        switch position {
        case 0: return inline.0
        case 1: return inline.1
        case 2: return inline.2
        case 3: return inline.3
        default: return overflow[position - 4]
        }
    }
}
