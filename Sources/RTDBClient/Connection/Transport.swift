/// What happens on a transport connection, delivered in order.
public enum TransportEvent: Sendable, Equatable {
    /// The connection is open; frames can be sent.
    case opened
    /// A text frame arrived.
    case frame(String)
    /// The connection ended (never after this); `reason` says why when known.
    case closed(reason: String?)
}

/// One open (or opening) connection of a transport.
public protocol TransportConnection: Sendable {
    /// Sends a text frame (dropped if the connection is gone).
    func send(_ frame: String)
    /// Sends text frames in order, as one write where the transport can (a queue going out).
    func send(_ frames: [String])
    /// Closes the connection; a `.closed` event follows.
    func close()
}

extension TransportConnection {
    /// Sends the frames one by one.
    public func send(_ frames: [String]) {
        for frame in frames { send(frame) }
    }
}

/// How the client reaches a server.
///
/// Real WebSockets, or a fault-injecting link in tests and simulations; injected into ``Database``.
public protocol Transport: Sendable {
    /// Opens a connection to `url`; every event goes to `onEvent`, in order, ending with `.closed`.
    func connect(to url: String, onEvent: @escaping @Sendable (TransportEvent) -> Void) -> any TransportConnection
}
