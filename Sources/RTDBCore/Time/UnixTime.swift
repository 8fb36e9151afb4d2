import Foundation

/// A moment in Unix time, to the millisecond: what a server timestamp holds and a wall clock reads.
///
/// The one instant type of server and device time. Milliseconds are its wire form (a resolved
/// `{".sv": "timestamp"}`, a handshake's `ts`); spans between two moments are `Duration`s.
public struct UnixTime: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    /// Milliseconds since 1970-01-01T00:00:00Z.
    public var millisecondsSince1970: Int64

    /// The moment `millisecondsSince1970` ms after the epoch.
    public init(millisecondsSince1970: Int64) {
        self.millisecondsSince1970 = millisecondsSince1970
    }

    /// The moment `secondsSince1970` whole seconds after the epoch (a token's `exp`), saturating.
    public init(secondsSince1970: Int64) {
        let (milliseconds, overflow) = secondsSince1970.multipliedReportingOverflow(by: 1000)
        self.init(millisecondsSince1970: overflow ? (secondsSince1970 < 0 ? .min : .max) : milliseconds)
    }

    /// The moment `date` is, to the nearest millisecond.
    public init(_ date: Date) {
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
        self.init(millisecondsSince1970: Int64(exactly: milliseconds) ?? (milliseconds < 0 ? .min : .max))
    }

    /// Decodes the wire form: a number of milliseconds since the epoch.
    public init(from decoder: any Decoder) throws {
        self.init(millisecondsSince1970: try decoder.singleValueContainer().decode(Int64.self))
    }

    /// Encodes the wire form: a number of milliseconds since the epoch.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(millisecondsSince1970)
    }

    /// The machine's wall clock now.
    public static func now() -> UnixTime { UnixTime(Date()) }

    /// The epoch itself.
    public static let epoch = UnixTime(millisecondsSince1970: 0)

    /// The same moment as a `Date`.
    public var date: Date { Date(timeIntervalSince1970: Double(millisecondsSince1970) / 1000) }

    /// Whole seconds since the epoch (a token's `iat` and `exp`), rounded down.
    public var secondsSince1970: Int64 {
        millisecondsSince1970 >= 0 ? millisecondsSince1970 / 1000 : (millisecondsSince1970 - 999) / 1000
    }

    /// The ISO 8601 form, for logs (`2026-11-24T03:00:00.000Z`).
    public var description: String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }

    /// Whether `lhs` is before `rhs`.
    public static func < (lhs: UnixTime, rhs: UnixTime) -> Bool {
        lhs.millisecondsSince1970 < rhs.millisecondsSince1970
    }

    /// The moment `span` after `time` (whole milliseconds; saturating at the ends of time).
    public static func + (time: UnixTime, span: Duration) -> UnixTime {
        let (sum, overflow) = time.millisecondsSince1970.addingReportingOverflow(span.wholeMilliseconds)
        guard !overflow else { return UnixTime(millisecondsSince1970: span > .zero ? .max : .min) }
        return UnixTime(millisecondsSince1970: sum)
    }

    /// The moment `span` before `time`.
    public static func - (time: UnixTime, span: Duration) -> UnixTime { time + (.zero - span) }

    /// The span from `earlier` to `later` (negative when `later` is the earlier one).
    public static func - (later: UnixTime, earlier: UnixTime) -> Duration {
        let (difference, overflow) = later.millisecondsSince1970.subtractingReportingOverflow(
            earlier.millisecondsSince1970)
        guard !overflow else { return later > earlier ? .milliseconds(Int64.max) : .milliseconds(Int64.min) }
        return .milliseconds(difference)
    }

    /// Moves `time` on by `span`.
    public static func += (time: inout UnixTime, span: Duration) { time = time + span }
}

/// A wall clock to inject: the machine's by default (``UnixTime/now()``), a skewed or hand-moved
/// one in a simulation or a test.
public typealias WallClock = @Sendable () -> UnixTime
