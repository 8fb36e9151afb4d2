/// How the repo's writes are numbered: this client instance's id (kept on disk with
/// persistence) and the next write's number, which together make each write's idempotency key.
struct WriteIDs {
    /// Identifies this client instance in idempotency keys.
    var instance: String
    /// The number the next write takes.
    var next = 1

    /// Takes the next write's number.
    mutating func allocate() -> Int {
        defer { next += 1 }
        return next
    }
}
