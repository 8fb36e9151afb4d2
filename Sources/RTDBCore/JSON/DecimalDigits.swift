/// An integer's decimal digits written straight into bytes: a request's text and an idempotency
/// key carry a number each, made by the thousand when a queue drains (`String(_:)` makes a string
/// of its own for each).
public enum DecimalDigits {
    /// The most bytes a number takes: `Int.min`'s nineteen digits and its sign.
    public static let maxCount = 20

    /// How many bytes `number` takes, its sign included.
    public static func count(_ number: Int) -> Int {
        var digits = 1
        var rest = number.magnitude / 10
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        return number < 0 ? digits + 1 : digits
    }

    /// Writes `number` into `buffer` from `start`, which has room for ``count(_:)`` bytes there;
    /// returns where the digits end.
    public static func write(_ number: Int, into buffer: UnsafeMutableBufferPointer<UInt8>, at start: Int) -> Int {
        let end = start + count(number)
        if number < 0 { buffer[start] = UInt8(ascii: "-") }
        var rest = number.magnitude
        var index = end
        repeat {
            index -= 1
            buffer[index] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
        } while rest > 0
        return end
    }

    /// Appends `number`'s digits to `output`, through a buffer on the stack.
    public static func append(_ number: Int, to output: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: maxCount) { digits in
            let end = write(number, into: digits, at: 0)
            output.append(contentsOf: UnsafeBufferPointer(rebasing: digits[..<end]))
        }
    }
}
