import NIOCore
import NIOWebSocket
import RTDBWire
import Synchronization

/// Writes a session's outbound messages straight onto its channel: what the engine sends while
/// one write is being scheduled joins it, so a burst shares one flush, and no task waits for
/// messages while the session is idle.
///
/// A close writes what came before it, then the close frame. A close the server starts waits for
/// the peer's answer (``peerClosed(code:)``) at most ``closeTimeout``, then the connection is
/// cut; a close the peer started is answered, and the connection closes at once (RFC 6455 §7:
/// the server closes the TCP connection first).
final class FrameWriter: Sendable {
    private struct State {
        var pending: [String] = []
        var scheduled = false
        /// The close frame to send after what is pending.
        var closeCode: WebSocketErrorCode?
        var closeSent = false
        /// The peer's close arrived: the connection ends once the answer is written.
        var peerClosed = false
    }

    /// How long a close the server started waits for the peer's answer.
    static let closeTimeout: TimeAmount = .seconds(3)

    private let channel: any Channel
    private let state = Mutex(State())

    /// Told how many bytes of text each flush wrote (the server's metrics).
    private let wrote: @Sendable (Int) -> Void

    init(channel: any Channel, wrote: @escaping @Sendable (Int) -> Void = { _ in }) {
        self.channel = channel
        self.wrote = wrote
    }

    /// Whether a close was asked for: the reader takes no more requests.
    var isClosing: Bool { state.withLock { $0.closeCode != nil } }

    /// Queues an item for the channel (messages after a close are dropped; SSE events do not
    /// apply to a WebSocket).
    func send(_ item: OutboundItem) {
        switch item {
        case .wire(let text):
            schedule { state in
                if state.closeCode == nil { state.pending.append(text) }
            }
        case .close: close()
        case .event: break
        }
    }

    /// Closes the connection after what is queued, with `code`.
    func close(code: WebSocketErrorCode = .normalClosure) {
        schedule { state in
            if state.closeCode == nil { state.closeCode = code }
        }
    }

    /// The peer sent its close frame: it is answered (unless the server's own close went first),
    /// and the connection ends.
    func peerClosed(code: WebSocketErrorCode = .normalClosure) {
        schedule { state in
            if state.closeCode == nil { state.closeCode = code }
            state.peerClosed = true
        }
    }

    /// Applies `change` and makes sure a flush is on its way (nothing changes once the peer's
    /// close has been seen: the connection is ending).
    private func schedule(_ change: (inout State) -> Void) {
        let needsFlush = state.withLock { state -> Bool in
            guard !state.peerClosed else { return false }
            change(&state)
            defer { state.scheduled = true }
            return !state.scheduled
        }
        guard needsFlush else { return }
        channel.eventLoop.execute { self.flush() }
    }

    /// Runs on the channel's event loop: writes everything pending with one flush, then the close
    /// frame if one was asked for.
    private func flush() {
        let (texts, closeCode, peerClosed) = state.withLock { state -> ([String], WebSocketErrorCode?, Bool) in
            defer {
                state.pending = []
                state.scheduled = false
            }
            let code = state.closeSent ? nil : state.closeCode
            if code != nil { state.closeSent = true }
            return (state.pending, code, state.peerClosed)
        }
        var bytes = 0
        for text in texts {
            WireFraming.forEachFrame(of: text) { frame in
                bytes += frame.count
                var data = self.channel.allocator.buffer(capacity: frame.count)
                data.writeBytes(frame)
                self.channel.write(WebSocketFrame(fin: true, opcode: .text, data: data), promise: nil)
            }
        }
        if bytes > 0 { wrote(bytes) }
        if let closeCode {
            var data = channel.allocator.buffer(capacity: 2)
            data.write(webSocketErrorCode: closeCode)
            channel.write(WebSocketFrame(fin: true, opcode: .connectionClose, data: data), promise: nil)
        }
        channel.flush()
        let channel = channel
        if peerClosed {
            channel.close(promise: nil)
        } else if closeCode != nil {
            channel.eventLoop.scheduleTask(in: Self.closeTimeout) { channel.close(promise: nil) }
        }
    }
}
