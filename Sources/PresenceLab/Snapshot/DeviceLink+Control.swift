import LinkSim
import RTDBCore

extension DeviceLink {
    /// A standalone link's state, from its control interface's JSON; nil if it does not read.
    init?(control json: JSONValue) {
        guard let name = json["mode"]?.stringValue, let mode = Mode(rawValue: name),
            let latency = json["latency_ms"]?.intValue, let jitter = json["jitter_ms"]?.intValue
        else { return nil }
        let conditions = LinkConditions(
            latency: .milliseconds(latency), jitter: .milliseconds(jitter),
            bytesPerSecond: json["bytes_per_second"]?.intValue.flatMap { Int(exactly: $0) })
        self.init(
            mode: mode, conditions: conditions.description,
            bytesUp: json["bytes_up"]?.intValue.flatMap { Int(exactly: $0) } ?? 0,
            bytesDown: json["bytes_down"]?.intValue.flatMap { Int(exactly: $0) } ?? 0)
    }
}
