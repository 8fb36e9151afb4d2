import RTDBClient
import RTDBCore
import RTDBWire
import Synchronization

/// A raw protocol-v5 client that keeps a window of requests in flight: the server's own rate,
/// with no client engine in the way, as the anchor a client's figure is set beside.
///
/// It runs on the client engine's own WebSocket transport, in the callbacks of its event loop:
/// the frames a turn sends go out in one write and one flush, so that on a machine of two cores
/// the load generator leaves the server as much of the processor as it can.
enum WirePipeline {
    /// Where one run stands, changed only in the transport's callbacks (one at a time, in order).
    private struct Progress {
        var helloSeen = false
        var sent = 0
        var acked = 0
        var finished: CheckedContinuation<Void, any Error>?
        var connection: (any TransportConnection)?
    }

    /// The server ended the connection before every request was answered.
    struct Ended: Error, CustomStringConvertible {
        var reason: String?
        var acked: Int
        var description: String { "the connection ended after \(acked) answers: \(reason ?? "no reason given")" }
    }

    /// Sends `count` requests made by `request` (numbered from 1) over one WebSocket to `url`,
    /// at most `window` unanswered, and returns when every one is answered.
    ///
    /// With `credential`, request 0 signs in first (its answer is not counted).
    static func run(
        url: String, count: Int, window: Int, credential: String? = nil,
        request: @escaping @Sendable (Int) -> ClientRequest
    ) async throws {
        let progress = Mutex(Progress())
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            progress.withLock { $0.finished = continuation }
            /// Sends requests until the window is full; called with the lock held.
            @Sendable func sendMore(_ state: inout Progress) {
                while state.sent < count && state.sent - state.acked < window {
                    state.sent += 1
                    state.connection?.send(WireMessage.request(state.sent, request(state.sent)).text)
                }
            }
            /// After the server's hello, once the connection is known: sign in, fill the window.
            @Sendable func begin(_ state: inout Progress) {
                guard state.helloSeen, state.connection != nil else { return }
                if let credential {
                    let auth = ClientRequest.auth(credential: credential, authVariable: nil)
                    state.connection?.send(WireMessage.request(0, auth).text)
                }
                sendMore(&state)
            }
            let connection = WebSocketTransport().connect(to: url) { event in
                progress.withLock { state in
                    switch event {
                    case .opened:
                        break
                    case .frame(let text):
                        guard state.helloSeen else {
                            state.helloSeen = true
                            begin(&state)
                            return
                        }
                        // Answers come in order: the next one is the acknowledgement of request acked + 1.
                        guard text == WireMessage.acknowledgementText(number: state.acked + 1) else { return }
                        state.acked += 1
                        if state.acked == count {
                            state.connection?.close()
                            state.finished?.resume()
                            state.finished = nil
                        } else if state.sent - state.acked < window / 2 {
                            sendMore(&state)
                        }
                    case .closed(let reason):
                        state.finished?.resume(throwing: Ended(reason: reason, acked: state.acked))
                        state.finished = nil
                    }
                }
            }
            progress.withLock { state in
                state.connection = connection
                // The hello may have come before the connection was known here.
                begin(&state)
            }
        }
    }
}
