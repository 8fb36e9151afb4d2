import RTDBCore

/// What a chaos run did and found.
public struct ChaosReport: Sendable {
    /// The run's seed.
    public var seed: UInt64
    /// Devices.
    public var devices: Int
    /// Users (devices share them).
    public var users: Int
    /// Seconds of faults.
    public var duration: Double
    /// The faults, in order.
    public var events: [ChaosEvent]
    /// Writes the devices were told they made, by kind.
    public var accepted: [String: Int] = [:]
    /// Writes made on a device's full disk (refused at once, checked absent).
    public var refusedOnFullDisk = 0
    /// Writes the server could not store (its disk was full), sent again at healing.
    public var sentAgainAfterServerDiskFull = 0
    /// Writes the server could not store that their app dropped (the presence flow made its
    /// connect again; a transaction's attempt said it did not commit).
    public var droppedNotStored = 0
    /// Devices that died for good at the end.
    public var gone = 0
    /// Seconds from the final deaths until presence showed the truth (nil: it never did).
    public var presenceSettledAfter: Double?
    /// Seconds healing took until every queue was empty.
    public var drainedAfter: Double?
    /// Everything that did not hold; empty when the run passed.
    public var problems: [String] = []

    /// Whether every check held.
    public var passed: Bool { problems.isEmpty }

    /// The report as text: seed, timeline, checks and verdict.
    public var text: String {
        var lines = ["chaos: seed \(seed), \(devices) devices of \(users) users, \(Int(duration)) s"]
        lines.append("faults (\(events.count)):")
        lines += events.map { "  \($0)" }
        let kinds = Dictionary(grouping: events, by: \.fault.kind).map { "\($0.key) \($0.value.count)" }.sorted()
        lines.append("fault counts: " + kinds.joined(separator: ", "))
        lines.append(
            "writes accepted: "
                + accepted.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
        lines.append(
            "full disks: \(refusedOnFullDisk) writes refused on a device's full disk; \(sentAgainAfterServerDiskFull) the server could not store, sent again at healing (\(droppedNotStored) more dropped by their app)"
        )
        lines.append("healing: queues empty after " + (drainedAfter.map { String(format: "%.1f s", $0) } ?? "never"))
        lines.append(
            "presence: \(gone) devices died for good; the truth shown after "
                + (presenceSettledAfter.map { String(format: "%.1f s", $0) } ?? "never"))
        lines += problems.map { "problem: \($0)" }
        lines.append(passed ? "verdict: PASS (seed \(seed))" : "verdict: FAIL (replay with --seed \(seed))")
        return lines.joined(separator: "\n")
    }

    /// The report as JSON.
    public var json: JSONValue {
        var object: JSONValue.Members = [:]
        object["seed"] = .string(String(seed))
        object["devices"] = .int(Int64(devices))
        object["users"] = .int(Int64(users))
        object["duration"] = .double(duration)
        object["faults"] = .array(
            events.map { event in
                var fault: JSONValue.Members = ["at": .double(event.at), "fault": .string(event.fault.description)]
                fault["kind"] = .string(event.fault.kind)
                fault["device"] = event.device.map { .int(Int64($0)) } ?? .null
                return .object(fault)
            })
        var accepted: JSONValue.Members = [:]
        for (kind, count) in self.accepted.sorted(by: { $0.key < $1.key }) {
            accepted[CodeUnitString(kind)] = .int(Int64(count))
        }
        object["accepted"] = .object(accepted)
        object["refusedOnFullDisk"] = .int(Int64(refusedOnFullDisk))
        object["sentAgainAfterServerDiskFull"] = .int(Int64(sentAgainAfterServerDiskFull))
        object["droppedNotStored"] = .int(Int64(droppedNotStored))
        object["gone"] = .int(Int64(gone))
        object["drainedAfter"] = drainedAfter.map { .double($0) } ?? .null
        object["presenceSettledAfter"] = presenceSettledAfter.map { .double($0) } ?? .null
        object["problems"] = .array(problems.map { .string($0) })
        object["verdict"] = .string(passed ? "pass" : "fail")
        return .object(object)
    }
}
