/// The `$wildcards` bound on the way down to a rule, in the order they were bound: each as the
/// position of the key it matched in the location's path, not the key itself.
///
/// A rule names a wildcard by its order among the wildcards above it (resolved when the rules are
/// read); the key is read from the rule's ``RuleLocation`` when the rule asks. Positions rather
/// than strings make a copy plain bytes (no retain, no release): every evaluation's scope holds a
/// copy. The first four live inline, so a walk binds them without allocating.
struct RuleVariables {
    private var inline: (Int32, Int32, Int32, Int32) = (0, 0, 0, 0)
    /// Beyond four (nil until then, so that a copy retains nothing).
    private var overflow: [Int32]?
    /// How many are bound.
    private(set) var count = 0

    /// Binds the next wildcard down to the key at `position` of the path (0 for the first key).
    mutating func bind(position: Int) {
        let position = Int32(truncatingIfNeeded: position)
        switch count {
        case 0: inline.0 = position
        case 1: inline.1 = position
        case 2: inline.2 = position
        case 3: inline.3 = position
        default: overflow = (overflow ?? []) + [position]
        }
        count += 1
    }

    /// The path position of the wildcard bound `order`th (0 for the topmost), or nil if not bound.
    subscript(order: Int) -> Int? {
        guard order >= 0, order < count else { return nil }
        switch order {
        case 0: return Int(inline.0)
        case 1: return Int(inline.1)
        case 2: return Int(inline.2)
        case 3: return Int(inline.3)
        default: return overflow.map { Int($0[order - 4]) }
        }
    }
}
