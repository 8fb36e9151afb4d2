import LinkSim

/// One fault of a chaos run, as the schedule draws it from the seed.
public enum ChaosFault: Sendable, Equatable, CustomStringConvertible {
    /// The device's network resets and refuses connections (airplane mode), for a while.
    case offline(seconds: Double)
    /// The device's network swallows everything without failing (a dead Wi-Fi), for a while.
    case blackhole(seconds: Double)
    /// The device's network adds this much delay, for a while.
    case latency(milliseconds: Int, seconds: Double)
    /// The device's network carries at most this many bytes a second, for a while.
    case bandwidth(bytesPerSecond: Int, seconds: Double)
    /// The device's process dies with no goodbye; it starts again from its SQLite file later.
    case crash(downSeconds: Double)
    /// The device's clock jumps (the user changed it, or it synchronized).
    case clockJump(milliseconds: Int64)
    /// The device's credential expires; the app sets a new one a while later.
    case credentialExpiry(seconds: Double)
    /// The server is killed with SIGKILL and started again on the same data.
    case serverKill(downSeconds: Double)
    /// The device's disk is full for a while: its store refuses every write.
    case diskFull(seconds: Double)
    /// The server's data folder is full for a while: its namespaces refuse writes.
    case serverDiskFull(seconds: Double)

    /// Whether the fault strikes the server rather than one device.
    public var isServerFault: Bool {
        switch self {
        case .serverKill, .serverDiskFull: true
        default: false
        }
    }

    /// A short name, for counts.
    public var kind: String {
        switch self {
        case .offline: "offline"
        case .blackhole: "blackhole"
        case .latency: "latency"
        case .bandwidth: "bandwidth"
        case .crash: "crash"
        case .clockJump: "clock jump"
        case .credentialExpiry: "credential expiry"
        case .serverKill: "server kill"
        case .diskFull, .serverDiskFull: "disk"
        }
    }

    /// For example `blackhole for 3.2 s`.
    public var description: String {
        func span(_ seconds: Double) -> String { String(format: "%.1f s", seconds) }
        switch self {
        case .offline(let seconds): return "offline for \(span(seconds))"
        case .blackhole(let seconds): return "blackhole for \(span(seconds))"
        case .latency(let milliseconds, let seconds): return "+\(milliseconds) ms latency for \(span(seconds))"
        case .bandwidth(let bytes, let seconds): return "\(bytes) B/s for \(span(seconds))"
        case .crash(let down): return "crashes, restarts from its file after \(span(down))"
        case .clockJump(let milliseconds): return "clock jumps \(milliseconds > 0 ? "+" : "")\(milliseconds / 1000) s"
        case .credentialExpiry(let seconds): return "credential expires, renewed after \(span(seconds))"
        case .serverKill(let down): return "SIGKILL, restarted after \(span(down))"
        case .diskFull(let seconds), .serverDiskFull(let seconds): return "disk full for \(span(seconds))"
        }
    }
}

/// A fault at a moment of the run.
public struct ChaosEvent: Sendable, Equatable, CustomStringConvertible {
    /// Seconds from the start of the run.
    public var at: Double
    /// The device it strikes; nil for the server.
    public var device: Int?
    /// The fault.
    public var fault: ChaosFault

    /// Makes an event.
    public init(at: Double, device: Int?, fault: ChaosFault) {
        self.at = at
        self.device = device
        self.fault = fault
    }

    /// For example `t=12.3 s  #17 blackhole for 3.2 s`.
    public var description: String {
        String(format: "t=%6.1f s  ", at) + (device.map { "#\($0) " } ?? "server ") + fault.description
    }
}
