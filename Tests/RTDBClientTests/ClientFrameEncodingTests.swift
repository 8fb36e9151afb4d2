import NIOCore
import NIOEmbedded
import NIOWebSocket
import RTDBCore
import Testing

@testable import RTDBClient

/// The client's own frame encoding writes, byte for byte, what swift-nio's `WebSocketFrameEncoder`
/// writes for the same frame and key, at every length class and every tail of the eight-byte mask.
@Suite struct ClientFrameEncodingTests {
    /// The bytes swift-nio's encoder writes for a final frame.
    private func nioBytes(_ opcode: WebSocketOpcode, _ payload: ByteBuffer, key: UInt32) throws -> [UInt8] {
        let channel = EmbeddedChannel(handler: WebSocketFrameEncoder())
        let keyBytes = [UInt8(key >> 24), UInt8((key >> 16) & 0xFF), UInt8((key >> 8) & 0xFF), UInt8(key & 0xFF)]
        let frame = WebSocketFrame(fin: true, opcode: opcode, maskKey: WebSocketMaskingKey(keyBytes), data: payload)
        try channel.writeAndFlush(frame).wait()
        var bytes: [UInt8] = []
        while var written = try channel.readOutbound(as: ByteBuffer.self) {
            bytes += written.readBytes(length: written.readableBytes) ?? []
        }
        _ = try channel.finish()
        return bytes
    }

    private func bytes(_ buffer: ByteBuffer) -> [UInt8] { Array(buffer.readableBytesView) }

    @Test(arguments: [0, 1, 3, 4, 7, 8, 9, 15, 16, 17, 125, 126, 127, 1_000, 65_535, 65_536, 70_001])
    func aTextFrameIsWhatSwiftNIOWrites(length: Int) throws {
        var random = SeededRandom(seed: UInt64(length) + 1)
        let key = UInt32(truncatingIfNeeded: random.next())
        let text = String((0..<length).map { index in Character(UnicodeScalar(UInt8(97 + (index * 7) % 26))) })
        let ours = ClientFrameEncoding.frame(.text, text: text, key: key, allocator: ByteBufferAllocator())
        #expect(bytes(ours) == (try nioBytes(.text, ByteBuffer(string: text), key: key)))
        #expect(ours.readableBytes == ClientFrameEncoding.headerLength(length) + length)
    }

    @Test func controlFramesAndMultibyteTextAreWhatSwiftNIOWrites() throws {
        let allocator = ByteBufferAllocator()
        let text = "présence ✓ 𝄞 " + String(repeating: "é", count: 70)
        let key: UInt32 = 0xA1B2_C3D4
        let ours = ClientFrameEncoding.frame(.text, text: text, key: key, allocator: allocator)
        #expect(bytes(ours) == (try nioBytes(.text, ByteBuffer(string: text), key: key)))
        var close = allocator.buffer(capacity: 2)
        close.write(webSocketErrorCode: .normalClosure)
        for (opcode, payload) in [(WebSocketOpcode.connectionClose, close), (.pong, ByteBuffer(string: "ping!"))] {
            let frame = ClientFrameEncoding.frame(opcode, payload: payload, key: key, allocator: allocator)
            #expect(bytes(frame) == (try nioBytes(opcode, payload, key: key)), "\(opcode)")
        }
        // A payload read past its start is framed from its reader index.
        var read = ByteBuffer(string: "xxhello")
        read.moveReaderIndex(forwardBy: 2)
        let frame = ClientFrameEncoding.frame(.pong, payload: read, key: key, allocator: allocator)
        #expect(bytes(frame) == (try nioBytes(.pong, ByteBuffer(string: "hello"), key: key)))
    }
}
