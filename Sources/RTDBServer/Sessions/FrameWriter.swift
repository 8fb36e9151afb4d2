import NIOCore
import NIOWebSocket
import RTDBWire
import Synchronization

/// Writes a session's outbound messages straight onto its channel: what the engine sends while
/// one write is being scheduled joins it, so a burst shares one flush, and no task waits for
/// messages while the session is idle.
///
/// A close writes what came before it, then shuts the channel's input so the session's reader
/// ends; the WebSocket library then sends the close frame and closes the connection.
final class FrameWriter: Sendable {
    private struct State {
        var pending: [String] = []
        var scheduled = false
        var closing = false
    }

    private let channel: any Channel
    private let state = Mutex(State())

    init(channel: any Channel) {
        self.channel = channel
    }

    /// Whether a close was asked for: the reader takes no more requests.
    var isClosing: Bool { state.withLock { $0.closing } }

    /// Queues an item for the channel (messages after a close are dropped; SSE events do not
    /// apply to a WebSocket).
    func send(_ item: OutboundItem) {
        let schedule = state.withLock { state -> Bool in
            guard !state.closing else { return false }
            switch item {
            case .wire(let text): state.pending.append(text)
            case .close: state.closing = true
            case .event: return false
            }
            defer { state.scheduled = true }
            return !state.scheduled
        }
        guard schedule else { return }
        channel.eventLoop.execute { self.flush() }
    }

    /// Runs on the channel's event loop: writes everything pending with one flush, then ends the
    /// input if a close was asked for.
    private func flush() {
        let (texts, closing) = state.withLock { state in
            defer {
                state.pending = []
                state.scheduled = false
            }
            return (state.pending, state.closing)
        }
        for text in texts {
            for frame in WireFraming.frames(for: text) {
                channel.write(WebSocketFrame(fin: true, opcode: .text, data: ByteBuffer(string: frame)), promise: nil)
            }
        }
        channel.flush()
        guard closing else { return }
        let channel = channel
        let halfClosed = channel.eventLoop.makePromise(of: Void.self)
        halfClosed.futureResult.whenFailure { _ in
            // A transport that cannot close only its input (TLS) is closed whole.
            channel.close(promise: nil)
        }
        channel.close(mode: .input, promise: halfClosed)
    }
}
