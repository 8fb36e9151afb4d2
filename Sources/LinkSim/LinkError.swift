/// What can go wrong with a simulated link.
public enum LinkError: Error, Equatable, CustomStringConvertible {
    /// Conditions out of range (a negative latency, a zero bandwidth…).
    case invalidConditions(String)
    /// A mode name that is not one of `up`, `blackhole`, `offline`.
    case unknownMode(String)
    /// The link's port could not be opened.
    case cannotListen(String)
    /// A control request that cannot be read (``LinkControl``).
    case invalidRequest(String)

    /// The problem in words.
    public var description: String {
        switch self {
        case .invalidConditions(let problem): "invalid link conditions: \(problem)"
        case .unknownMode(let name): "unknown link mode '\(name)' (expected up, blackhole or offline)"
        case .cannotListen(let reason): "the link cannot listen: \(reason)"
        case .invalidRequest(let problem): "invalid link request: \(problem)"
        }
    }
}
