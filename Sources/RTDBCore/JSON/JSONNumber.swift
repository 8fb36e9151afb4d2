/// A JSON number: an exact 64-bit integer, or a double.
///
/// Comparison and hashing follow the Firebase SDKs, which treat every number as a double:
/// `.int(5) == .double(5.0)`. Arithmetic for server increments stays integral when it can.
public enum JSONNumber: Sendable {
    /// An integer literal that fits in 64 bits.
    case int(Int64)
    /// Any other number.
    case double(Double)

    /// The value as a double (what ordering and hashing use).
    public var doubleValue: Double {
        switch self {
        case .int(let value): return Double(value)
        case .double(let value): return value
        }
    }

    /// The exact integer value, when there is one (`5.0` counts as `5`).
    public var exactInt: Int64? {
        switch self {
        case .int(let value): return value
        case .double(let value): return Int64(exactly: value)
        }
    }

    /// Whether the value is finite (not NaN or infinite).
    public var isFinite: Bool {
        if case .double(let value) = self { return value.isFinite }
        return true
    }

    /// The sum with integer arithmetic when both sides are integers and it does not overflow.
    public static func + (lhs: JSONNumber, rhs: JSONNumber) -> JSONNumber {
        if case .int(let a) = lhs, case .int(let b) = rhs {
            let (sum, overflow) = a.addingReportingOverflow(b)
            if !overflow { return .int(sum) }
        }
        return .double(lhs.doubleValue + rhs.doubleValue)
    }
}

extension JSONNumber: Hashable, Comparable {
    /// Numbers are equal when their double values are.
    public static func == (lhs: JSONNumber, rhs: JSONNumber) -> Bool {
        if case .int(let a) = lhs, case .int(let b) = rhs { return a == b }
        return lhs.doubleValue == rhs.doubleValue
    }

    /// Orders numbers by their double values, as the SDKs do.
    public static func < (lhs: JSONNumber, rhs: JSONNumber) -> Bool {
        if case .int(let a) = lhs, case .int(let b) = rhs { return a < b }
        return lhs.doubleValue < rhs.doubleValue
    }

    /// Hashes the double value so that `.int(5)` and `.double(5)` hash alike.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(doubleValue)
    }
}

extension JSONNumber: CustomStringConvertible {
    /// The JSON text: integers without a fraction (`5`, not `5.0`), doubles in shortest form.
    ///
    /// JSON has no NaN or infinity. The engine refuses them on the way in (values, priorities,
    /// increments), so none should get here; one that did prints as `null`, as JavaScript's
    /// `JSON.stringify` prints it, so that what the server emits always parses.
    public var description: String {
        switch self {
        case .int(let value):
            return String(value)
        case .double(let value) where !value.isFinite:
            return "null"
        case .double(let value):
            if value == value.rounded(), abs(value) < 9_007_199_254_740_992 {
                if value == 0 { return value.sign == .minus ? "-0" : "0" }
                return String(Int64(value))
            }
            return String(value)
        }
    }
}

extension JSONNumber: ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral {
    /// An integer.
    public init(integerLiteral value: Int64) { self = .int(value) }
    /// A double.
    public init(floatLiteral value: Double) { self = .double(value) }
}
