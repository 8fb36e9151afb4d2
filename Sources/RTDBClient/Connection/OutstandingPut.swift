import RTDBCore
import RTDBWire

/// A set (`p`) or update (`m`) kept by the connection until the server answers it.
///
/// The data is produced when the put is sent, not when it is queued: a restart queues thousands
/// of restored writes whose stored text need not be parsed until a connection takes them.
struct OutstandingPut {
    /// A set or an update.
    enum Kind {
        case set, merge
    }

    let id: Int
    let kind: Kind
    let path: Path
    let data: () -> JSONValue
    /// A transaction's hash of the data it started from.
    let hash: String?
    /// Our idempotency extension (`ik`).
    let idempotencyKey: String?
    let onSend: (() -> Void)?
    let onComplete: (WireStatus, JSONValue) -> Void
    /// Whether it went out on the current connection.
    var sent = false

    /// The request, with its data made now.
    var request: ClientRequest {
        switch kind {
        case .set: .put(path: path, data: data(), hash: hash, idempotencyKey: idempotencyKey)
        case .merge: .merge(path: path, data: data().objectValue ?? [:], idempotencyKey: idempotencyKey)
        }
    }
}
