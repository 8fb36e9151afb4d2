import RTDBCore
import RTDBWire

extension DatabaseError {
    /// The error a server's refusal means: its status as the code, its explanation (or else the
    /// status) as the message.
    init(status: WireStatus, data: JSONValue) {
        self.init(code: status, message: data.stringValue ?? status.rawValue)
    }
}
