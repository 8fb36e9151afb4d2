import RTDBCore

/// The JSON a link is read and driven with over its control interface (`presencetop proxy`):
/// one vocabulary for the server that answers and the client that asks.
///
/// `GET /link` answers ``state(of:)``. `PUT /link` takes an object with any of `mode` (`up`,
/// `blackhole`, `offline`), `preset` (a ``LinkConditions`` preset's name), `latency_ms`,
/// `jitter_ms` and `bytes_per_second` (null: unlimited); a preset comes first, then the figures
/// given change it.
public enum LinkControl {
    /// The path of the link's resource.
    public static let path = "/link"

    /// The link's mode, conditions and stats, as `GET /link` answers them.
    public static func state(of link: LinkProxy) -> JSONValue {
        let stats = link.stats
        let conditions = stats.conditions
        return [
            "mode": .string(stats.mode.rawValue),
            "upstream": .string("\(link.upstreamHost):\(link.upstreamPort)"),
            "port": link.port.map { .int(Int64($0)) } ?? .null,
            "latency_ms": .int(conditions.latency.wholeMilliseconds),
            "jitter_ms": .int(conditions.jitter.wholeMilliseconds),
            "bytes_per_second": conditions.bytesPerSecond.map { .int(Int64($0)) } ?? .null,
            "open_connections": .int(Int64(stats.openConnections)),
            "accepted_connections": .int(Int64(stats.acceptedConnections)),
            "refused_connections": .int(Int64(stats.refusedConnections)),
            "bytes_up": .int(Int64(stats.bytesUp)),
            "bytes_down": .int(Int64(stats.bytesDown)),
            "bytes_held": .int(Int64(stats.bytesHeld)),
            "upstream_failure": stats.upstreamFailure.map { .int(Int64($0)) } ?? .null,
        ]
    }

    /// A change asked for with `PUT /link`.
    public struct Change: Sendable, Equatable {
        /// The mode to set, if any.
        public var mode: LinkMode?
        /// The conditions to set, if any.
        public var conditions: LinkConditions?

        /// Makes a change.
        public init(mode: LinkMode? = nil, conditions: LinkConditions? = nil) {
            self.mode = mode
            self.conditions = conditions
        }

        /// The change as the JSON `PUT /link` takes.
        public var json: JSONValue {
            var members = JSONValue.Members()
            if let mode { members["mode"] = .string(mode.rawValue) }
            if let conditions {
                members["latency_ms"] = .int(conditions.latency.wholeMilliseconds)
                members["jitter_ms"] = .int(conditions.jitter.wholeMilliseconds)
                members["bytes_per_second"] = conditions.bytesPerSecond.map { .int(Int64($0)) } ?? .null
            }
            return .object(members)
        }
    }

    /// Reads a `PUT /link` body against the link's current conditions.
    ///
    /// - Throws: ``LinkError`` naming the field and what is wrong with it.
    public static func change(from body: JSONValue, current: LinkConditions) throws(LinkError) -> Change {
        guard let members = body.objectValue else {
            throw .invalidRequest("the body must be a JSON object, such as {\"mode\":\"blackhole\"}")
        }
        let known: Set<String> = ["mode", "preset", "latency_ms", "jitter_ms", "bytes_per_second"]
        if let unknown = members.keys.map(\.description).first(where: { !known.contains($0) }) {
            throw .invalidRequest("unknown field '\(unknown)' (expected \(known.sorted().joined(separator: ", ")))")
        }
        var change = Change()
        if let mode = members["mode"] {
            guard let name = mode.stringValue else { throw .invalidRequest("mode must be a string") }
            change.mode = try LinkMode.named(name)
        }
        var conditions = current
        var conditionsGiven = false
        if let preset = members["preset"] {
            guard let name = preset.stringValue, let named = LinkConditions.preset(named: name) else {
                let names = LinkConditions.presets.map(\.name).joined(separator: ", ")
                throw .invalidRequest("preset must be one of \(names)")
            }
            conditions = named
            conditionsGiven = true
        }
        if let latency = members["latency_ms"] {
            conditions.latency = .milliseconds(try milliseconds(latency, "latency_ms"))
            conditionsGiven = true
        }
        if let jitter = members["jitter_ms"] {
            conditions.jitter = .milliseconds(try milliseconds(jitter, "jitter_ms"))
            conditionsGiven = true
        }
        if let rate = members["bytes_per_second"] {
            if rate.isNull {
                conditions.bytesPerSecond = nil
            } else {
                guard let value = rate.intValue, let bytes = Int(exactly: value) else {
                    throw .invalidRequest("bytes_per_second must be a whole number or null")
                }
                conditions.bytesPerSecond = bytes
            }
            conditionsGiven = true
        }
        if conditionsGiven { change.conditions = try conditions.validated() }
        return change
    }

    /// Applies a change to a link.
    public static func apply(_ change: Change, to link: LinkProxy) throws(LinkError) {
        if let conditions = change.conditions { try link.setConditions(conditions) }
        if let mode = change.mode { link.mode = mode }
    }

    private static func milliseconds(_ value: JSONValue, _ field: String) throws(LinkError) -> Int64 {
        guard let number = value.intValue else { throw .invalidRequest("\(field) must be a whole number") }
        return number
    }
}
