/// What is wrong with a theme file, and where.
public struct ThemeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file (or `built-in`).
    public var file: String
    /// The line, 1-based, when known.
    public var line: Int?
    /// The column, 1-based, when known.
    public var column: Int?
    /// What is wrong.
    public var problem: String

    /// Makes an error.
    public init(file: String, line: Int? = nil, column: Int? = nil, problem: String) {
        self.file = file
        self.line = line
        self.column = column
        self.problem = problem
    }

    /// `file:line:column: problem`, as compilers say it.
    public var description: String {
        var location = file
        if let line { location += ":\(line)" }
        if let line, let column, line > 0 { location += ":\(column)" }
        return "\(location): \(problem)"
    }
}
