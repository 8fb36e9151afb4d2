import RTDBCore

/// How a working link treats the bytes it carries: delay, jitter and bandwidth.
public struct LinkConditions: Sendable, Equatable, CustomStringConvertible {
    /// The one-way delay every byte waits.
    public var latency: Duration
    /// Extra one-way delay, drawn uniformly from zero to this for each write (order is kept).
    public var jitter: Duration
    /// The link's throughput in each direction; nil for no limit.
    public var bytesPerSecond: Int?

    /// Makes conditions; ``validated()`` says what is wrong with them, if anything.
    public init(latency: Duration = .zero, jitter: Duration = .zero, bytesPerSecond: Int? = nil) {
        self.latency = latency
        self.jitter = jitter
        self.bytesPerSecond = bytesPerSecond
    }

    /// No delay and no limit.
    public static let perfect = LinkConditions()
    /// A wired local network.
    public static let lan = LinkConditions(latency: .milliseconds(1))
    /// A home Wi-Fi connection.
    public static let wifi = LinkConditions(latency: .milliseconds(15), jitter: .milliseconds(10))
    /// A phone on a good mobile network.
    public static let mobile = LinkConditions(
        latency: .milliseconds(60), jitter: .milliseconds(40), bytesPerSecond: 1_000_000)
    /// A phone at the edge of coverage.
    public static let poor = LinkConditions(
        latency: .milliseconds(300), jitter: .milliseconds(200), bytesPerSecond: 32_000)

    /// The presets by name, for flags and configuration files.
    public static let presets: [(name: String, conditions: LinkConditions)] = [
        ("perfect", .perfect), ("lan", .lan), ("wifi", .wifi), ("mobile", .mobile), ("poor", .poor),
    ]

    /// The preset with this name, if there is one.
    public static func preset(named name: String) -> LinkConditions? {
        presets.first { $0.name == name }?.conditions
    }

    /// These conditions, or an error naming what is out of range.
    public func validated() throws(LinkError) -> LinkConditions {
        let (latencyText, jitterText) = ("\(latency.wholeMilliseconds) ms", "\(jitter.wholeMilliseconds) ms")
        if latency < .zero { throw .invalidConditions("latency \(latencyText) is negative") }
        if jitter < .zero { throw .invalidConditions("jitter \(jitterText) is negative") }
        if latency > .seconds(60) { throw .invalidConditions("latency \(latencyText) is over 60 s") }
        if jitter > .seconds(60) { throw .invalidConditions("jitter \(jitterText) is over 60 s") }
        if let bytesPerSecond, bytesPerSecond < 1 {
            throw .invalidConditions("bandwidth \(bytesPerSecond) B/s is not positive")
        }
        return self
    }

    /// For example `60 ms ± 40 ms, 1000000 B/s`.
    public var description: String {
        var text = "\(latency.wholeMilliseconds) ms"
        if jitter > .zero { text += " ± \(jitter.wholeMilliseconds) ms" }
        if let bytesPerSecond { text += ", \(bytesPerSecond) B/s" }
        return text
    }

    static func nanoseconds(_ duration: Duration) -> UInt64 {
        let (seconds, attoseconds) = duration.components
        return UInt64(max(0, seconds)) * 1_000_000_000 + UInt64(max(0, attoseconds / 1_000_000_000))
    }
}
