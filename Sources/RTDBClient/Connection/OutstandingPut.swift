import RTDBCore

/// A set (`p`) or update (`m`) kept by the connection until the server answers it.
///
/// The data is produced when the put is sent, not when it is queued: a restart queues thousands
/// of restored writes whose stored text need not be parsed until a connection takes them.
struct OutstandingPut {
    let id: Int
    let action: String
    let path: Path
    let data: () -> JSONValue
    /// A transaction's hash of the data it started from.
    let hash: String?
    /// Our idempotency extension (`ik`).
    let idempotencyKey: String?
    let onSend: (() -> Void)?
    let onComplete: (String, JSONValue) -> Void
    /// Whether it went out on the current connection.
    var sent = false

    /// The request body.
    var body: JSONValue {
        var body: JSONValue.Members = ["p": .string(path.description), "d": data()]
        if let hash { body["h"] = .string(hash) }
        if let idempotencyKey { body["ik"] = .string(idempotencyKey) }
        return .object(body)
    }
}
