/// One rule of a rules file: its kind, where in the tree it sits, its text and its place.
public struct RuleReference: Sendable, Hashable {
    /// `.read`, `.write` or `.validate`.
    public var kind: RuleKind
    /// Where in the tree the rule sits, wildcards by name (`/users/$uid`).
    public var path: String
    /// The rule as written.
    public var text: String
    /// The file the rules came from.
    public var file: String
    /// Where the rule's expression starts in the file.
    public var location: SourceLocation

    /// Makes a reference (the rules make them; tests and views read them).
    public init(kind: RuleKind, path: String, text: String, file: String, location: SourceLocation) {
        self.kind = kind
        self.path = path
        self.text = text
        self.file = file
        self.location = location
    }

    /// `FILE:LINE:COLUMN`, as compilers name a place.
    public var place: String { "\(file):\(location.line):\(location.column)" }
}
