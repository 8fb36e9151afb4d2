import RTDBCore
import RTDBWire

/// A set (`p`) or update (`m`) kept by the connection until the server answers it.
///
/// The data is produced when the put is sent, not when it is queued (see ``PutData``).
struct OutstandingPut {
    /// A set or an update.
    enum Kind {
        case set, merge
    }

    let id: Int
    let kind: Kind
    let path: Path
    let data: PutData
    /// A transaction's hash of the data it started from.
    let hash: String?
    /// Our idempotency extension (`ik`).
    let idempotencyKey: String?
    let onSend: (() -> Void)?
    let onComplete: (WireStatus, JSONValue) -> Void
    /// Whether it went out on the current connection.
    var sent = false

    /// The request's text, with its data made now.
    func requestText(_ number: Int) -> String {
        switch data {
        case .json(let make):
            let request: ClientRequest =
                switch kind {
                case .set: .put(path: path, data: make(), hash: hash, idempotencyKey: idempotencyKey)
                case .merge: .merge(path: path, data: make().objectValue ?? [:], idempotencyKey: idempotencyKey)
                }
            return WireMessage.requestText(number, request)
        case .checkedText(let text):
            return WireMessage.requestText(
                number, kind == .set ? .put : .merge, path: path, dataText: text, hash: hash,
                idempotencyKey: idempotencyKey)
        }
    }
}
