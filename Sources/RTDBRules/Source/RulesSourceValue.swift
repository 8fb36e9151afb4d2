/// A JSON value of a rules file, with where each part of it is.
///
/// Strings keep the location of every character, so a problem inside a rule expression is
/// reported at its place in the file, escapes and all.
indirect enum RulesSourceValue {
    case object([(key: String, location: SourceLocation, value: RulesSourceValue)], SourceLocation)
    case array([RulesSourceValue], SourceLocation)
    case string(String, characters: [SourceLocation], SourceLocation)
    case bool(Bool, SourceLocation)
    case number(String, SourceLocation)
    case null(SourceLocation)

    /// Where the value starts.
    var location: SourceLocation {
        switch self {
        case .object(_, let location), .array(_, let location), .string(_, _, let location), .bool(_, let location),
            .number(_, let location), .null(let location):
            return location
        }
    }

    /// What the value is, for messages.
    var kind: String {
        switch self {
        case .object: return "an object"
        case .array: return "an array"
        case .string: return "a string"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .null: return "null"
        }
    }
}
