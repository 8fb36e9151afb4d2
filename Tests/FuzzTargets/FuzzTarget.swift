/// The inputs presencetop reads from people and programs it cannot trust, each as a function
/// libFuzzer (`scripts/fuzz`) and the regression tests feed bytes to.
///
/// A target returns normally for any input: input it refuses is refused with an error, which the
/// target swallows. It traps (and the fuzzer reports a crash) only when the code under test traps,
/// or when an invariant the target checks does not hold (``fuzzInvariant``).
public enum FuzzTarget: String, CaseIterable, Sendable {
    /// Protocol v5 frames as a server reads them: reassembly, the message, the request.
    case wire
    /// JSON as imported over REST and WebSocket: the parser, the tree, the export.
    case json
    /// A REST request's target: path, percent-encoding, query parameters and a query applied.
    case rest
    /// A security rules file: the reader, the parser, the type checker and an evaluation.
    case rules
    /// A theme file and a `config.toml`.
    case theme
    /// A scenario file (`--scenario`).
    case scenario
    /// A recording (`presencetop replay`).
    case recording
    /// The dashboard's settings file, `config.toml`.
    case settings
    /// A service account key, a token endpoint's answer, an ID token, a database URL.
    case credentials
    /// What a server sends the client's WebSocket: the upgrade's answer, then frames.
    case clientSocket = "client-socket"
    /// What a peer sends a server's session after the upgrade: frames, as the session reads them.
    case serverSocket = "server-socket"

    /// Runs the target on one input.
    public func run(_ bytes: [UInt8]) {
        switch self {
        case .wire: Self.wire(bytes)
        case .json: Self.json(bytes)
        case .rest: Self.rest(bytes)
        case .rules: Self.rules(bytes)
        case .theme: Self.theme(bytes)
        case .scenario: Self.scenario(bytes)
        case .recording: Self.recording(bytes)
        case .settings: Self.settings(bytes)
        case .credentials: Self.credentials(bytes)
        case .clientSocket: _ = Self.clientSocket(bytes)
        case .serverSocket: _ = Self.serverSocket(bytes)
        }
    }
}

/// Stops the fuzzer with the input that broke an invariant.
func fuzzInvariant(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError("invariant broken: \(message())") }
}
