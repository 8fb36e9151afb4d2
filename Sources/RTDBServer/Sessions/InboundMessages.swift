import RTDBCore
import RTDBWire

/// A session's inbound text frames taken apart, the same for a WebSocket and an in-process
/// session: fragments assembled, pings answered with the server's time, malformed messages told
/// to the client, and each request turned into a ``SessionRequest`` (or the error to answer it
/// with) for the namespace.
struct InboundMessages {
    /// What one inbound frame comes to.
    enum Taken {
        /// Nothing to queue: a fragment, a control message answered here, or an error told.
        case nothing
        /// A request (or the error to answer it with) for the namespace.
        case request(SessionRequest)
        /// The connection must end.
        case end
    }

    private var assembler: FrameAssembler
    private let maxWriteBytes: Int
    private let clock: WallClock
    /// Told of each message refused as malformed or too big (the server's metrics).
    private let refused: @Sendable () -> Void

    /// Takes frames within `configuration`'s limits; pongs carry `clock`'s time.
    init(configuration: ServerConfiguration, clock: @escaping WallClock, refused: @escaping @Sendable () -> Void = {}) {
        self.refused = refused
        assembler = FrameAssembler(maxMessageBytes: 2 * configuration.maxWebSocketWriteBytes)
        maxWriteBytes = configuration.maxWebSocketWriteBytes
        self.clock = clock
    }

    /// Takes one frame; a pong goes to `outlet`, a problem to `report` (which tells the client).
    mutating func take(_ frame: String, outlet: Outlet, report: (String) -> Void) -> Taken {
        let assembled: String?
        do {
            assembled = try assembler.receive(frame)
        } catch {
            refused()
            report("\(error); closing the connection")
            return .end
        }
        guard let text = assembled else { return .nothing }
        let parsing = WriteBreakdown.begin()
        defer { WriteBreakdown.end(.parse, since: parsing) }
        if let write = WireWrite.read(text) {
            // Almost every write: its data made nodes as its text was read.
            guard text.utf8.count <= maxWriteBytes else {
                refused()
                return .request(tooBig(text, number: write.number))
            }
            return .request(SessionRequest(write))
        }
        let message: WireMessage
        do {
            message = try WireMessage(text: text)
        } catch {
            refused()
            report(error.message)
            return .nothing
        }
        switch message {
        case .control(.ping):
            // The pong carries the server time: clients that know it estimate clock skew from the
            // round trip; the SDKs only need the `d` to be there.
            outlet.send(.wire(ControlMessage.pongText(serverTime: clock().millisecondsSince1970)))
            return .nothing
        case .control:
            return .nothing
        case .request(let number, let action, let body):
            if text.utf8.count > maxWriteBytes {
                refused()
                return .request(tooBig(text, number: number))
            }
            do {
                let request = try ClientRequest(action: action, body: body)
                return .request(SessionRequest(number: number, request: .success(request)))
            } catch {
                refused()
                return .request(SessionRequest(number: number, request: .failure(error)))
            }
        case .response, .push:
            refused()
            report("clients send requests, not responses or pushes")
            return .nothing
        }
    }

    /// The answer to a request longer than the server takes.
    private func tooBig(_ text: String, number: Int) -> SessionRequest {
        let error = WireError(
            status: .tooBig, message: "request is \(text.utf8.count) bytes; the limit is \(maxWriteBytes)")
        return SessionRequest(number: number, request: .failure(error))
    }
}
