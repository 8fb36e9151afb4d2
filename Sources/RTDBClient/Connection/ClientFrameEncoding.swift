import NIOCore
import NIOWebSocket
import RTDBWire

/// A client's frame as it goes on the wire (RFC 6455 §5.2): the header, the masking key and
/// the masked payload, written into one buffer.
///
/// swift-nio's `WebSocketFrameEncoder` does this too; a client's writes pay there for a second
/// buffer for the header, a copy of the payload to mask it (the frame still holds it) and two
/// writes down the pipeline a frame. The client sends every frame through here, with nothing
/// of its own on the way: a drain of queued writes spent a fifth of the client's time there.
enum ClientFrameEncoding {
    /// A final frame of `opcode` carrying `text`'s UTF-8, masked with `key`.
    static func frame(_ opcode: WebSocketOpcode, text: String, key: UInt32, allocator: ByteBufferAllocator)
        -> ByteBuffer
    {
        let length = text.utf8.count
        var buffer = allocator.buffer(capacity: headerLength(length) + length)
        writeHeader(opcode, length: length, key: key, into: &buffer)
        let start = buffer.writerIndex
        buffer.writeString(text)
        mask(&buffer, from: start, key: key)
        return buffer
    }

    /// A final frame of `opcode` carrying `payload`'s readable bytes, masked with `key`.
    static func frame(_ opcode: WebSocketOpcode, payload: ByteBuffer, key: UInt32, allocator: ByteBufferAllocator)
        -> ByteBuffer
    {
        let length = payload.readableBytes
        var buffer = allocator.buffer(capacity: headerLength(length) + length)
        writeHeader(opcode, length: length, key: key, into: &buffer)
        let start = buffer.writerIndex
        var payload = payload
        buffer.writeBuffer(&payload)
        mask(&buffer, from: start, key: key)
        return buffer
    }

    /// The header's bytes for a masked payload of `length` bytes.
    static func headerLength(_ length: Int) -> Int {
        let lengthBytes = length <= 125 ? 0 : length <= Int(UInt16.max) ? 2 : 8
        return 2 + lengthBytes + 4
    }

    private static func writeHeader(_ opcode: WebSocketOpcode, length: Int, key: UInt32, into buffer: inout ByteBuffer)
    {
        // FIN, no reserved bits; the mask bit, then the length in 7 bits, or 126 and 16 bits, or
        // 127 and 64 bits.
        buffer.writeInteger(0x80 | UInt8(webSocketOpcode: opcode))
        if length <= 125 {
            buffer.writeInteger(0x80 | UInt8(length))
        } else if length <= Int(UInt16.max) {
            buffer.writeInteger(UInt8(0x80 | 126))
            buffer.writeInteger(UInt16(length))
        } else {
            buffer.writeInteger(UInt8(0x80 | 127))
            buffer.writeInteger(UInt64(length))
        }
        buffer.writeInteger(key)
    }

    /// Masks the bytes from `start` to the end with the key.
    private static func mask(_ buffer: inout ByteBuffer, from start: Int, key: UInt32) {
        let offset = start - buffer.readerIndex
        buffer.withUnsafeMutableReadableBytes { bytes in
            guard offset < bytes.count else { return }
            WebSocketMask.apply(key, to: UnsafeMutableRawBufferPointer(rebasing: bytes[offset...]))
        }
    }
}
