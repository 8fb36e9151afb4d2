import RTDBCore
import Testing

/// An integer's digits written into bytes read as `String(_:)` writes them, with their count.
@Suite struct DecimalDigitsTests {
    @Test(arguments: [0, 1, 9, 10, 99, 100, 4_096, 1_000_000, -1, -10, -987_654_321, Int.max, Int.min])
    func digitsReadAsStringWritesThem(_ number: Int) {
        #expect(DecimalDigits.count(number) == String(number).utf8.count)
        var appended = Array("x=".utf8)
        DecimalDigits.append(number, to: &appended)
        #expect(String(decoding: appended, as: UTF8.self) == "x=\(number)")
        let written = [UInt8](unsafeUninitializedCapacity: 3 + DecimalDigits.maxCount) { buffer, count in
            buffer[0] = UInt8(ascii: "[")
            let end = DecimalDigits.write(number, into: buffer, at: 1)
            buffer[end] = UInt8(ascii: "]")
            count = end + 1
        }
        #expect(String(decoding: written, as: UTF8.self) == "[\(number)]")
    }
}
