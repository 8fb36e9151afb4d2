/// Makes the 20-character, chronologically ordered keys of `childByAutoId()` and REST `POST`
/// (docs/data-model.md#push-ids).
///
/// Eight characters encode the (estimated server) time in milliseconds, twelve are random. Within
/// one millisecond the random part is incremented instead of redrawn, so ids made by one
/// generator sort in creation order. Time and randomness are injected.
public struct PushIDGenerator: Sendable {
    /// The 64-character alphabet, in ASCII order.
    public static let alphabet = Array("-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz".utf8)

    private var random: any RandomNumberGenerator & Sendable
    private var lastTime: Int64 = .min
    private var lastRandomDigits = [Int](repeating: 0, count: 12)

    /// Makes a generator drawing from `random` (the system generator by default).
    public init(random: any RandomNumberGenerator & Sendable = SystemRandomNumberGenerator()) {
        self.random = random
    }

    /// The next id for the time `now` (the server-time estimate).
    public mutating func next(now: UnixTime) -> String {
        var bytes = [UInt8](repeating: 0, count: 20)
        let now = now.millisecondsSince1970
        var time = now
        for position in stride(from: 7, through: 0, by: -1) {
            bytes[position] = PushIDGenerator.alphabet[Int(time & 63)]
            time >>= 6
        }
        if now == lastTime {
            var position = 11
            while position >= 0, lastRandomDigits[position] == 63 {
                lastRandomDigits[position] = 0
                position -= 1
            }
            if position >= 0 { lastRandomDigits[position] += 1 }
        } else {
            lastTime = now
            for position in 0..<12 { lastRandomDigits[position] = Int(random.next() & 63) }
        }
        for position in 0..<12 { bytes[8 + position] = PushIDGenerator.alphabet[lastRandomDigits[position]] }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The time encoded in the first eight characters of a push id, or nil if it is not one.
    public static func timestamp(of id: String) -> UnixTime? {
        let bytes = Array(id.utf8)
        guard bytes.count == 20 else { return nil }
        var time: Int64 = 0
        for byte in bytes[0..<8] {
            guard let digit = alphabet.firstIndex(of: byte) else { return nil }
            time = time << 6 | Int64(digit)
        }
        return UnixTime(millisecondsSince1970: time)
    }
}
