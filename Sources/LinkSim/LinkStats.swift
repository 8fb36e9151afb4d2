/// What a link has carried and holds, for the dashboard and for tests.
public struct LinkStats: Sendable, Equatable {
    /// The link's mode now.
    public var mode: LinkMode
    /// The link's conditions now.
    public var conditions: LinkConditions
    /// Connections through the link now.
    public var openConnections = 0
    /// Connections accepted since the link started.
    public var acceptedConnections = 0
    /// Connections refused or reset because the link was offline.
    public var refusedConnections = 0
    /// Bytes delivered from clients to the server.
    public var bytesUp = 0
    /// Bytes delivered from the server to clients.
    public var bytesDown = 0
    /// Bytes on their way (delayed, or held by a blackhole).
    public var bytesHeld = 0
    /// Connection ends the link has stopped reading, because too much of what they sent waits
    /// for the other end (TCP then slows their sender).
    public var sidesNotRead = 0
    /// Why the link's last attempt to reach the server failed, as a system error number.
    ///
    /// `ECONNREFUSED`: nothing listens there; `0`: it failed without one; nil once it got
    /// through. The client behind the link only sees its connection reset.
    public var upstreamFailure: Int32?

    /// Stats of a link that has carried nothing yet.
    public init(mode: LinkMode, conditions: LinkConditions) {
        self.mode = mode
        self.conditions = conditions
    }
}
