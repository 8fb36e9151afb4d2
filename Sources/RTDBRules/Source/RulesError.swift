/// A rules file that cannot be used: where, and what is wrong.
///
/// Its description reads as compilers print theirs, `FILE:LINE:COLUMN: message`.
public struct RulesError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file's name as it was given (`rules.json` when the rules came from a request).
    public var file: String
    /// Where the problem is.
    public var location: SourceLocation
    /// What is wrong.
    public var message: String

    /// Makes an error.
    public init(file: String, location: SourceLocation, message: String) {
        self.file = file
        self.location = location
        self.message = message
    }

    /// `FILE:LINE:COLUMN: message`.
    public var description: String { "\(file):\(location): \(message)" }
}

/// A problem found while reading, before the file name is known.
struct LocatedProblem: Error {
    var location: SourceLocation
    var message: String
}
