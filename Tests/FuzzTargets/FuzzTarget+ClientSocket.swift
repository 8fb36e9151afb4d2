import NIOCore
import NIOEmbedded
@_spi(Fuzzing) import RTDBClient
import Synchronization

extension FuzzTarget {
    /// RFC 6455's sample key and the accept a server answers it with (§1.3).
    static let sampleKey = (key: "dGhlIHNhbXBsZSBub25jZQ==", accept: "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")

    /// What a server sends a client: its answer to the upgrade, then frames.
    ///
    /// The client's own handlers read them on an in-memory channel. The input is cut into reads
    /// where it holds 0xFF 0xFE (a server's bytes arrive in any pieces); an input that starts with
    /// `+` is put behind a valid `101` for the sample key, so the frames are reached. Whatever the
    /// bytes, the connection reports at most one end and nothing after it, and a message only
    /// once open; the events are returned for the tests.
    @discardableResult
    public static func clientSocket(_ bytes: [UInt8]) -> [TransportEvent] {
        var input = bytes
        if input.first == UInt8(ascii: "+") {
            input.removeFirst()
            let answer =
                "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: \(sampleKey.accept)\r\n\r\n"
            input = Array(answer.utf8) + input
        }
        let events = Mutex<[TransportEvent]>([])
        let record: @Sendable (TransportEvent) -> Void = { event in events.withLock { $0.append(event) } }
        let channel = EmbeddedChannel()
        guard
            (try? ClientSocketPipeline.install(
                on: channel, url: "ws://127.0.0.1:1/.ws", requestKey: sampleKey.key, onEvent: record)) != nil,
            (try? channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()) != nil
        else { return [] }
        var start = 0
        for index in input.indices where index + 1 < input.count && input[index] == 0xFF && input[index + 1] == 0xFE {
            _ = try? channel.writeInbound(ByteBuffer(bytes: input[start..<index]))
            start = index + 2
        }
        _ = try? channel.writeInbound(ByteBuffer(bytes: input[min(start, input.count)...]))
        _ = try? channel.close().wait()
        // Torn down, or each input leaks its channel (a closed EmbeddedChannel that is never
        // finished keeps about 5 KiB).
        _ = try? channel.finish(acceptAlreadyClosed: true)
        let all = events.withLock { $0 }
        let ends = all.indices.filter { if case .closed = all[$0] { true } else { false } }
        fuzzInvariant(ends.count <= 1, "more than one end: \(all)")
        fuzzInvariant(ends.first.map { $0 == all.count - 1 } ?? true, "events after the end: \(all)")
        if let firstFrame = all.firstIndex(where: { if case .frame = $0 { true } else { false } }) {
            fuzzInvariant(all[..<firstFrame].contains(.opened), "a message before the upgrade: \(all)")
        }
        return all
    }
}
