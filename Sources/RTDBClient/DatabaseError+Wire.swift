import RTDBCore
import RTDBWire

extension DatabaseError {
    /// The error a server's refusal means: its status as the code, its explanation (or else the
    /// status) as the message.
    init(status: WireStatus, data: JSONValue) {
        self.init(code: status, message: data.stringValue ?? status.rawValue)
    }

    /// The error a write or transaction fails with locally, before it is sent: the status the
    /// server would answer it with.
    init(_ error: ValidationError) {
        self.init(code: WireStatus(error), message: error.description)
    }
}
