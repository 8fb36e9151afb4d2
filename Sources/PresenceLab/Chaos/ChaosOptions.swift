import Foundation

/// How a chaos run goes (`presencetop chaos`).
public struct ChaosOptions: Sendable {
    /// Simulated devices.
    public var devices = 100
    /// Devices per user (the last user may have fewer).
    public var devicesPerUser = 3
    /// Seconds of faults and writes before healing.
    public var duration: Double = 300
    /// The seed of the faults, the writes and the final deaths.
    public var seed: UInt64 = 1
    /// The server's heartbeat timeout, in seconds: how long presence may take to show the truth.
    public var heartbeatTimeout = 5
    /// The fault kinds to inject (nil: all).
    public var faultKinds: Set<String>?
    /// The share of devices that die for good at the end (half of them silently).
    public var finalDeaths = 0.1
    /// How a server is started: the presencetop executable and `serve` (the run adds its options).
    public var serverCommand: [String]
    /// Where the run keeps its files (the server's data, each device's SQLite file).
    public var folder: URL

    /// Makes options with the defaults.
    public init(serverCommand: [String], folder: URL) {
        self.serverCommand = serverCommand
        self.folder = folder
    }
}
