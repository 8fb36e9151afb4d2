import Foundation
import NIOCore
import NIOPosix

/// A plain TCP connection to a loopback server, non-blocking (SwiftNIO), for speaking HTTP and
/// WebSocket by hand: a client that never answers pings, raw HTTP requests, SSE streams.
public final class RawTCPClient: Sendable {
    private let channel: NIOAsyncChannel<ByteBuffer, ByteBuffer>
    private let inbox = Inbox()
    /// Owns the channel's streams (`executeThenClose`) and reads into the inbox, until `close()`.
    private let reader: Task<Void, Never>
    /// The channel's writer, handed out by the reader.
    private let outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>
    /// Finished by `close()`: the reader holds the connection open for writing until then, also
    /// after the server has finished sending.
    private let release: AsyncStream<Void>.Continuation

    private actor Inbox {
        var buffer: [UInt8] = []
        var closed = false
        private var waiters: [Int: (continuation: CheckedContinuation<Void, Never>, timer: Task<Void, Never>)] = [:]
        private var nextWaiter = 0

        func append(_ bytes: [UInt8]) {
            buffer += bytes
            wakeAll()
        }

        func close() {
            closed = true
            wakeAll()
        }

        /// Returns once more than `seen` bytes have arrived or the connection closed, or after
        /// `limit` if one is given (a bound, not a poll).
        func nextChange(beyond seen: Int, within limit: Duration?) async {
            guard !closed, buffer.count == seen else { return }
            let id = nextWaiter
            nextWaiter += 1
            await withCheckedContinuation { continuation in
                let timer = Task { [weak self] in
                    guard let limit else { return }
                    guard (try? await Task.sleep(for: limit)) != nil else { return }
                    await self?.expire(id)
                }
                waiters[id] = (continuation, timer)
            }
        }

        private func expire(_ id: Int) { waiters.removeValue(forKey: id)?.continuation.resume() }

        private func wakeAll() {
            let woken = waiters.values
            waiters = [:]
            for waiter in woken {
                waiter.timer.cancel()
                waiter.continuation.resume()
            }
        }

        func take(upTo count: Int) -> [UInt8] {
            let taken = Array(buffer.prefix(count))
            buffer.removeFirst(taken.count)
            return taken
        }
        func snapshot() -> (bytes: [UInt8], closed: Bool) { (buffer, closed) }
        func drop(_ count: Int) { buffer.removeFirst(count) }
    }

    /// Connects to a loopback port.
    ///
    /// - Parameter answeringPings: Answer the server's WebSocket pings on the event loop as they
    ///   arrive (``PingAnswerer``), not only when the test sends a pong itself.
    public init(port: Int, answeringPings: Bool = false) async throws {
        channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    if answeringPings { try channel.pipeline.syncOperations.addHandler(PingAnswerer()) }
                    return try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        let (inbox, channel) = (inbox, channel)
        let (writers, handOut) = AsyncStream.makeStream(of: NIOAsyncChannelOutboundWriter<ByteBuffer>.self)
        let (held, release) = AsyncStream.makeStream(of: Void.self)
        self.release = release
        reader = Task {
            try? await channel.executeThenClose { inbound, outbound in
                handOut.yield(outbound)
                handOut.finish()
                do {
                    for try await buffer in inbound { await inbox.append(Array(buffer.readableBytesView)) }
                } catch {}
                await inbox.close()
                for await _ in held {}
            }
            handOut.finish()
            await inbox.close()
        }
        var handedOut = writers.makeAsyncIterator()
        guard let outbound = await handedOut.next() else { throw TestFailure("the connection could not be used") }
        self.outbound = outbound
    }

    /// When a wait of `attempts` gives up: 100 ms each.
    ///
    /// The 50 ms polls these waits replaced stretched on a loaded machine (each sleep overran), so a wall bound of the same nominal
    /// length would be tighter than they were; waits end at the bytes, not at the bound.
    private static func deadline(_ attempts: Int) -> ContinuousClock.Instant {
        ContinuousClock.now + .milliseconds(100 * attempts)
    }

    /// Sends bytes.
    public func write(_ bytes: [UInt8]) async throws {
        try await outbound.write(ByteBuffer(bytes: bytes))
    }

    /// Sends text.
    public func write(_ text: String) async throws {
        try await write(Array(text.utf8))
    }

    /// Waits until the received bytes contain `marker` and returns everything up to and including it.
    public func read(until marker: String, attempts: Int = 200) async throws -> String {
        try await read(untilBytes: Array(marker.utf8), attempts: attempts)
    }

    /// Waits for a WebSocket ping frame from the server carrying `payload` (under 126 bytes).
    public func readWebSocketPing(_ payload: String, attempts: Int = 200) async throws {
        _ = try await read(untilBytes: [0x89, UInt8(payload.utf8.count)] + Array(payload.utf8), attempts: attempts)
    }

    /// Waits until the received bytes contain `needle` and returns everything up to and including it.
    @discardableResult
    public func read(untilBytes needle: [UInt8], attempts: Int = 200) async throws -> String {
        let marker = String(decoding: needle, as: UTF8.self)
        let deadline = Self.deadline(attempts)
        while true {
            let (bytes, closed) = await inbox.snapshot()
            if let range = bytes.firstRange(of: needle) {
                let text = String(decoding: bytes[..<range.upperBound], as: UTF8.self)
                await inbox.drop(range.upperBound)
                return text
            }
            if closed { throw TestFailure("connection closed before \(marker.debugDescription)") }
            // Checked once more after the bound: what came at the last moment counts.
            guard ContinuousClock.now < deadline else { throw TestFailure("no \(marker.debugDescription) received") }
            await inbox.nextChange(beyond: bytes.count, within: deadline - ContinuousClock.now)
        }
    }

    /// Waits until the server closes the connection; returns whatever arrived.
    public func readToEnd(attempts: Int = 200) async throws -> String {
        String(decoding: try await readBytesToEnd(attempts: attempts), as: UTF8.self)
    }

    /// Waits until the server closes the connection; returns the bytes that arrived (and were not
    /// read before), as they are.
    public func readBytesToEnd(attempts: Int = 200) async throws -> [UInt8] {
        let deadline = Self.deadline(attempts)
        while true {
            let (bytes, closed) = await inbox.snapshot()
            if closed { return bytes }
            guard ContinuousClock.now < deadline else { throw TestFailure("the server did not close the connection") }
            await inbox.nextChange(beyond: bytes.count, within: deadline - ContinuousClock.now)
        }
    }

    /// Waits until the server closes the connection; returns the code of the WebSocket close
    /// frame it sent last (unmasked, as a server sends it), or nil if it sent none.
    public func readWebSocketCloseCode(attempts: Int = 200) async throws -> UInt16? {
        let deadline = Self.deadline(attempts)
        while true {
            let (bytes, closed) = await inbox.snapshot()
            if closed {
                // The close frame is the last one: 0x88, its length, the code, the reason.
                for start in bytes.indices.reversed() where bytes[start] == 0x88 && start + 1 < bytes.count {
                    let length = Int(bytes[start + 1])
                    if length >= 2, length < 126, start + 2 + length == bytes.count {
                        return UInt16(bytes[start + 2]) << 8 | UInt16(bytes[start + 3])
                    }
                }
                return nil
            }
            guard ContinuousClock.now < deadline else { throw TestFailure("the server did not close the connection") }
            await inbox.nextChange(beyond: bytes.count, within: deadline - ContinuousClock.now)
        }
    }

    /// Whether the server closed the connection.
    public var isClosed: Bool { get async { await inbox.snapshot().closed } }

    /// Returns once the server has closed the connection, woken by what arrives, not by a clock
    /// (a server that never closes it is named by the test's time limit).
    public func waitUntilClosed() async {
        while true {
            let (closed, seen) = (await inbox.closed, await inbox.buffer.count)
            if closed { return }
            await inbox.nextChange(beyond: seen, within: nil)
        }
    }

    /// Ends this side's sending (a FIN after what was written) and keeps reading: unlike a close
    /// with unread data, which resets the connection, nothing written is lost.
    public func finishWriting() async throws {
        try await channel.channel.close(mode: .output)
    }

    /// Closes the connection.
    public func close() async {
        outbound.finish()
        release.finish()
        reader.cancel()
        try? await channel.channel.close()
    }

    // MARK: - WebSocket by hand

    /// Performs the WebSocket upgrade for `target`.
    public func upgradeToWebSocket(target: String) async throws {
        try await write(
            "GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
        let head = try await read(until: "\r\n\r\n")
        guard head.hasPrefix("HTTP/1.1 101") else { throw TestFailure("upgrade refused: \(head)") }
    }

    /// Sends one masked text frame.
    public func sendWebSocketText(_ text: String) async throws {
        try await sendWebSocketFrame(opcode: 0x1, payload: Array(text.utf8))
    }

    /// Sends one masked pong frame (the answer to a ping carrying `payload`).
    public func sendWebSocketPong(_ payload: String) async throws {
        try await sendWebSocketFrame(opcode: 0xA, payload: Array(payload.utf8))
    }

    /// Sends one masked frame, final unless `fin` is false (a fragment that more will follow).
    public func sendWebSocketFrame(opcode: UInt8, payload: [UInt8], fin: Bool = true) async throws {
        try await write(Self.webSocketFrame(opcode: opcode, payload: payload, fin: fin))
    }

    /// One masked frame's bytes, as a client sends it.
    public static func webSocketFrame(opcode: UInt8, payload: [UInt8], fin: Bool = true) -> [UInt8] {
        var frame: [UInt8] = [(fin ? 0x80 : 0) | opcode]
        if payload.count < 126 {
            frame.append(0x80 | UInt8(payload.count))
        } else if payload.count < 65_536 {
            frame.append(0x80 | 126)
            frame += [UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        } else {
            frame.append(0x80 | 127)
            frame += (0..<8).reversed().map { UInt8((payload.count >> ($0 * 8)) & 0xFF) }
        }
        let mask: [UInt8] = [0x12, 0x34, 0x56, 0x78]
        frame += mask
        frame += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
        return frame
    }
}
