/// What a query selects: an index, an optional range, and an optional limit window.
///
/// Shared by client views and the server so both pick exactly the same children.
public struct QueryParams: Sendable, Hashable {
    /// One end of a range: an index value, an optional tie-breaking key, and inclusiveness.
    public struct Bound: Sendable, Hashable {
        /// The index value (a leaf: null, bool, number or string).
        public var value: JSONValue
        /// The key that breaks ties among equal values; nil means the outermost sentinel.
        public var name: ChildKey?
        /// Whether a child equal to the bound is inside the range (false for startAfter/endBefore).
        public var inclusive: Bool

        /// Makes a bound.
        public init(value: JSONValue, name: ChildKey? = nil, inclusive: Bool = true) {
            self.value = value
            self.name = name
            self.inclusive = inclusive
        }
    }

    /// Which end of the ordered children a limit keeps.
    public enum ViewFrom: String, Sendable, Hashable {
        /// The first children (`limitToFirst`).
        case left = "l"
        /// The last children (`limitToLast`).
        case right = "r"
    }

    /// The ordering.
    public var index: Index
    /// The lower bound, if any.
    public var start: Bound?
    /// The upper bound, if any.
    public var end: Bound?
    /// The most children kept, if any.
    public var limit: Int?
    /// Which end the limit keeps; when nil, left if a start is set, else right.
    public var viewFrom: ViewFrom?

    /// The default query: everything, by priority.
    public static let `default` = QueryParams()

    /// Makes query parameters.
    public init(
        index: Index = .priority, start: Bound? = nil, end: Bound? = nil, limit: Int? = nil, viewFrom: ViewFrom? = nil
    ) {
        self.index = index
        self.start = start
        self.end = end
        self.limit = limit
        self.viewFrom = viewFrom
    }

    /// Whether the query selects every child (no range, no limit), whatever its ordering.
    public var loadsAllData: Bool { start == nil && end == nil && limit == nil }

    /// Whether this is the default query (loads all data by priority).
    public var isDefault: Bool { loadsAllData && index == .priority }

    /// The side a limit keeps, resolved.
    public var effectiveViewFrom: ViewFrom { viewFrom ?? (start != nil ? .left : .right) }

    /// The lower bound as a child under the index.
    ///
    /// Without a name an inclusive start takes `[MIN_NAME]` and an exclusive one (startAfter)
    /// `[MAX_NAME]`, so that the whole value is skipped, as the JS SDK sends it.
    public var startPost: NamedNode {
        guard let start else { return .min }
        return index.post(value: start.value, name: start.name ?? (start.inclusive ? .min : .max))
    }

    /// The upper bound as a child under the index (endBefore without a name takes `[MIN_NAME]`).
    public var endPost: NamedNode {
        guard let end else { return .max }
        return index.post(value: end.value, name: end.name ?? (end.inclusive ? .max : .min))
    }

    /// Whether a child lies inside the range (ignoring the limit).
    public func matchesRange(_ child: NamedNode) -> Bool {
        if let start {
            let order = index.compare(startPost, child)
            if order > 0 || (order == 0 && !start.inclusive) { return false }
        }
        if let end {
            let order = index.compare(child, endPost)
            if order > 0 || (order == 0 && !end.inclusive) { return false }
        }
        return true
    }
}
