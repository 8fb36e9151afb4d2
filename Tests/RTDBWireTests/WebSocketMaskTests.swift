import RTDBCore
import Testing

@testable import RTDBWire

/// The word-at-a-time masking agrees with the byte-at-a-time rule of RFC 6455 §5.3 at every
/// length around the word, and unmasking into text repairs invalid UTF-8 as `String(decoding:)` does.
@Suite struct WebSocketMaskTests {
    private func byteByByte(_ bytes: [UInt8], key: UInt32) -> [UInt8] {
        let keyBytes = [UInt8(key >> 24), UInt8((key >> 16) & 0xFF), UInt8((key >> 8) & 0xFF), UInt8(key & 0xFF)]
        return bytes.enumerated().map { $0.element ^ keyBytes[$0.offset % 4] }
    }

    @Test func agreesWithTheRuleByteByByte() {
        var random = SeededRandom(seed: 6455)
        for length in 0...41 {
            let key = UInt32(truncatingIfNeeded: random.next())
            let payload = (0..<length).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            var masked = payload
            masked.withUnsafeMutableBytes { WebSocketMask.apply(key, to: $0) }
            #expect(masked == byteByByte(payload, key: key), "length \(length)")
            // The same operation unmasks.
            masked.withUnsafeMutableBytes { WebSocketMask.apply(key, to: $0) }
            #expect(masked == payload)
        }
    }

    @Test func unmaskedTextIsTheTextAndInvalidUTF8IsRefused() {
        let key: UInt32 = 0x3745_9AF1
        let texts = ["présence ✓ 𝄞 and some more text", #"{"t":"d","d":{"r":1}}"#, ""]
        for plain in texts {
            let masked = byteByByte(Array(plain.utf8), key: key)
            #expect(masked.withUnsafeBytes { WebSocketMask.text($0, key: key) } == plain)
            #expect(Array(plain.utf8).withUnsafeBytes { WebSocketMask.text($0) } == plain)
        }
        // A stray byte, a truncated sequence (one that repairs to as many bytes as it had), an
        // encoded surrogate, an overlong slash,
        // and a stray byte inside the words the unmasking checks eight bytes at a time.
        let invalid: [[UInt8]] = [
            [0x61, 0xFF, 0x62], [0x61, 0xF0, 0x9F, 0x98], [0xED, 0xA0, 0x80], [0xC0, 0xAF],
            Array(repeating: 0x61, count: 11) + [0xFF] + Array(repeating: 0x62, count: 9),
        ]
        for bytes in invalid {
            let masked = byteByByte(bytes, key: key)
            #expect(masked.withUnsafeBytes { WebSocketMask.text($0, key: key) } == nil, "\(bytes)")
            #expect(bytes.withUnsafeBytes { WebSocketMask.text($0) } == nil, "\(bytes)")
        }
    }
}
