/// A device's network link as a snapshot shows it.
public struct DeviceLink: Sendable, Equatable {
    /// Whether the link carries anything, and how it fails when it does not.
    public enum Mode: String, Sendable, Equatable, CaseIterable {
        /// Bytes flow, under the link's conditions.
        case up
        /// Nothing arrives and nothing fails: only the server's heartbeat notices.
        case blackhole
        /// Every connection is reset and new ones refused: both ends know at once.
        case offline
    }

    /// Its mode now.
    public var mode: Mode
    /// Its conditions, as they read (`60 ms ± 40 ms, 1000000 B/s`).
    public var conditions: String
    /// Bytes delivered from the device to the server.
    public var bytesUp: Int
    /// Bytes delivered from the server to the device.
    public var bytesDown: Int

    /// Makes a link's snapshot.
    public init(mode: Mode, conditions: String, bytesUp: Int = 0, bytesDown: Int = 0) {
        self.mode = mode
        self.conditions = conditions
        self.bytesUp = bytesUp
        self.bytesDown = bytesDown
    }
}
