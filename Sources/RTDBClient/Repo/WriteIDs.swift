import RTDBCore

/// How the repo's writes are numbered: this client instance's id (kept on disk with
/// persistence) and the next write's number, which together make each write's idempotency key.
struct WriteIDs {
    /// Identifies this client instance in idempotency keys.
    var instance: String
    /// The number the next write takes.
    var next = 1

    /// An instance with the given id.
    init(instance: String) { self.instance = instance }

    /// A new instance with a random id.
    init(using generator: inout some RandomNumberGenerator) {
        instance = Self.makeInstanceID(using: &generator)
    }

    /// Takes the next write's number.
    mutating func allocate() -> Int {
        defer { next += 1 }
        return next
    }

    /// The idempotency key of a write: this instance's id and the write id (and the attempt, for
    /// transactions, whose every attempt is a different write).
    func key(_ writeID: Int, attempt: Int? = nil) -> String {
        let key = Self.key(instance: instance, writeID)
        return attempt.map { key + "." + String($0) } ?? key
    }

    /// `instance:writeID`, made in one allocation (a draining queue makes a key for each of
    /// thousands of writes; concatenation makes each part's string first).
    static func key(instance: String, _ writeID: Int) -> String {
        var instance = instance
        return instance.withUTF8 { head in
            String(unsafeUninitializedCapacity: head.count + 1 + DecimalDigits.maxCount) { buffer in
                var end = buffer.initialize(fromContentsOf: head)
                buffer[end] = UInt8(ascii: ":")
                end += 1
                return DecimalDigits.write(writeID, into: buffer, at: end)
            }
        }
    }

    /// Twenty characters of `[0-9a-zA-Z]`.
    static func makeInstanceID(using generator: inout some RandomNumberGenerator) -> String {
        let alphabet = Array("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
        return String((0..<20).map { _ in alphabet[Int.random(in: alphabet.indices, using: &generator)] })
    }
}
