import Testing

@testable import RTDBCore

/// The word-at-a-time searches find what a byte-by-byte walk finds, from every start, in text
/// with the bytes they look for at every place in a word, and bytes near them that they must not
/// take (0x20, 0x7E, 0x80 and up, whose top bit the word tricks turn on).
@Suite struct ByteScanTests {
    private static let alphabet: [UInt8] = [
        0x22, 0x5C, 0x00, 0x1F, 0x20, 0x21, 0x7E, 0x7F, 0x80, 0xA2, 0xDC, 0xFF, 0x61,
    ]

    private static func texts() -> [[UInt8]] {
        var random = SeededRandom(seed: 11)
        var texts: [[UInt8]] = [[], [0x61], Array(repeating: 0x61, count: 40)]
        for _ in 0..<300 {
            let length = Int(random.next() % 40)
            // Mostly plain bytes, so that a hit lands anywhere in a word or past several.
            texts.append(
                (0..<length).map { _ in
                    random.next() % 6 == 0 ? alphabet[Int(random.next() % UInt64(alphabet.count))] : 0x61
                })
        }
        return texts
    }

    private static func naive(_ bytes: [UInt8], from start: Int, _ wanted: (UInt8) -> Bool) -> Int {
        bytes[start...].firstIndex(where: wanted) ?? bytes.count
    }

    @Test func eachSearchFindsTheFirstByteItLooksFor() {
        for text in Self.texts() {
            text.withUnsafeBufferPointer { bytes in
                for start in 0...text.count {
                    #expect(
                        ByteScan.firstQuoteOrBackslash(bytes, from: start)
                            == Self.naive(text, from: start) { $0 == 0x22 || $0 == 0x5C })
                    #expect(
                        ByteScan.firstStringSpecial(bytes, from: start)
                            == Self.naive(text, from: start) { $0 == 0x22 || $0 == 0x5C || $0 < 0x20 })
                    #expect(
                        ByteScan.firstNeedingEscape(bytes, from: start)
                            == Self.naive(text, from: start) { $0 == 0x22 || $0 == 0x5C || $0 < 0x20 || $0 == 0x7F })
                }
            }
        }
    }
}
