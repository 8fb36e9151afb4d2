/// A scenario file that cannot be run: where, and what is wrong.
public struct ScenarioError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file's name as given.
    public var file: String
    /// The 1-based line, when known.
    public var line: Int?
    /// What is wrong.
    public var problem: String

    /// Makes an error.
    public init(file: String, line: Int?, problem: String) {
        self.file = file
        self.line = line
        self.problem = problem
    }

    /// `FILE:LINE: problem`.
    public var description: String { "\(file)\(line.map { ":\($0)" } ?? ""): \(problem)" }
}
