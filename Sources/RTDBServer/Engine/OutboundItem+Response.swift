import RTDBCore
import RTDBWire

extension OutboundItem {
    /// The answer to request `number`: `ok` with the data, or the error's status and words.
    static func response(_ number: Int, _ outcome: Result<JSONValue, WireError>) -> OutboundItem {
        let message: WireMessage
        switch outcome {
        case .success(.string("")):
            // The most common answer (every write's ack), without building a JSON tree.
            return .wire(WireMessage.acknowledgementText(number: number))
        case .success(let data): message = .response(number: number, status: .ok, data: data)
        case .failure(let error):
            message = .response(number: number, status: error.status, data: .string(error.message))
        }
        return .wire(message.text)
    }
}
