/// One second of this device's connection history.
public enum ConnectionMark: Sendable, Equatable {
    /// `.info/connected` was true and the link up.
    case connected
    /// Connected as far as the client knows, but the link swallows everything.
    case blackholed
    /// Trying to connect.
    case connecting
    /// Not connected.
    case disconnected
}
