/// The seconds a person may give for one setting (an option, a file's field), checked before they
/// become a `Duration`: the one conversion of a user's `Double` to a span of time.
///
/// `Duration.milliseconds(Int64(seconds * 1000))` traps past `Int64` (`1e300`, `inf`) and makes
/// nonsense of NaN; a value here is finite and within bounds, or an error that names the setting
/// and its range.
public struct SecondsRange: Sendable, Equatable {
    /// The smallest and largest values taken, in seconds.
    public let bounds: ClosedRange<Double>

    /// A range; bounds past a century are cut to it (no setting needs more).
    public init(_ bounds: ClosedRange<Double>) {
        let limit = SecondsRange.century
        self.bounds = max(-limit, min(limit, bounds.lowerBound))...max(-limit, min(limit, bounds.upperBound))
    }

    /// A hundred years, in seconds: far inside what a `Duration` in milliseconds holds.
    public static let century: Double = 100 * 365.25 * 86_400

    /// Why a value was refused: the setting, its range and what was given.
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// `--heartbeat-timeout must be a number of seconds from 0.001 to 86400, not inf`.
        public var description: String
    }

    /// `seconds` as a span, to the millisecond.
    ///
    /// - Parameter name: The setting as the user wrote it (`--at`, `'heartbeat'`), for the message.
    /// - Throws: ``Failure`` for NaN, an infinity or a value outside ``bounds``.
    public func duration(_ seconds: Double, for name: String) throws(Failure) -> Duration {
        .milliseconds(Int64(try checked(seconds, for: name) * 1000))
    }

    /// `seconds` itself, once it is known to be finite and within ``bounds``.
    ///
    /// - Throws: ``Failure`` naming the setting and its range.
    public func checked(_ seconds: Double, for name: String) throws(Failure) -> Double {
        guard allows(seconds) else {
            throw Failure(
                description:
                    "\(name) must be a number of seconds from \(Self.text(bounds.lowerBound)) to \(Self.text(bounds.upperBound)), not \(Self.text(seconds))"
            )
        }
        return seconds
    }

    /// Whether `seconds` is finite and within ``bounds``.
    public func allows(_ seconds: Double) -> Bool {
        seconds.isFinite && bounds.contains(seconds)
    }

    /// `5`, `0.25`, `1e+300`, `inf`: whole numbers without a fraction.
    private static func text(_ value: Double) -> String {
        value.isFinite && value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}

extension SecondsRange {
    /// A timeout or an interval: from a millisecond to a day.
    public static let interval = SecondsRange(0.001...86_400)
    /// How long something runs: from a millisecond to a year.
    public static let runLength = SecondsRange(0.001...(365 * 86_400))
    /// A moment in a recording or a script, from its start: up to a century.
    public static let offset = SecondsRange(0...century)
}
