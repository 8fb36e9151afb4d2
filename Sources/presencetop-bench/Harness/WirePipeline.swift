import HummingbirdWSClient
import Logging
import RTDBCore
import RTDBWire

/// A raw protocol-v5 client that keeps a window of requests in flight: the server's own rate,
/// with no client engine in the way, as the anchor a client's figure is set beside.
enum WirePipeline {
    /// Sends `count` requests made by `request` (numbered from 1) over one WebSocket to `url`,
    /// at most `window` unanswered, and returns when every one is answered.
    ///
    /// With `credential`, request 0 signs in first (its answer is not counted).
    static func run(
        url: String, count: Int, window: Int, credential: String? = nil,
        request: @escaping @Sendable (Int) -> ClientRequest
    ) async throws {
        try await WebSocketClient.connect(url: url, logger: Logger(label: "bench.pipeline")) { inbound, outbound, _ in
            var sent = 0
            var acked = 0
            var messages = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
            _ = try await messages.next()  // hello
            if let credential {
                let auth = ClientRequest.auth(credential: credential, authVariable: nil)
                try await outbound.write(.text(WireMessage.request(0, auth).text))
            }
            func sendMore() async throws {
                while sent < count && sent - acked < window {
                    sent += 1
                    try await outbound.write(.text(WireMessage.request(sent, request(sent)).text))
                }
            }
            try await sendMore()
            while acked < count, let message = try await messages.next() {
                // Answers come in order: the next one is the acknowledgement of request acked + 1.
                guard case .text(let text) = message, text == WireMessage.acknowledgementText(number: acked + 1)
                else { continue }
                acked += 1
                if sent - acked < window / 2 { try await sendMore() }
            }
            try await outbound.close(.normalClosure, reason: nil)
        }
    }
}
