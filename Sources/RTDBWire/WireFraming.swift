import RTDBCore

/// Splits outgoing protocol messages into frames (docs/wire-protocol.md#framing).
///
/// A message longer than 16,384 UTF-16 code units goes as a frame holding only the decimal
/// fragment count, then that many fragments. Fragments are cut on Unicode scalar boundaries so
/// each one is valid UTF-8 on its own.
public enum WireFraming {
    /// The longest frame the SDKs send or expect, in UTF-16 code units.
    public static let maxFrameSize = 16_384

    /// The keepalive frame a client sends after 45 s without traffic; servers ignore it (it
    /// reads as a count of zero fragments).
    public static let keepalive = "0"
    /// How long a client stays silent before it sends ``keepalive`` (45 s, as the SDKs do).
    public static let keepaliveAfter: Duration = .seconds(45)

    /// Whether `message` goes as one frame, itself (checked without reading it: UTF-8 never has
    /// fewer bytes than UTF-16 has units, and a native string knows its UTF-8 count).
    @inlinable
    public static func fitsOneFrame(_ message: String, maxFrameSize: Int = WireFraming.maxFrameSize) -> Bool {
        message.utf8.count <= maxFrameSize
    }

    /// The frames that carry `message`: the message itself, or a count frame then fragments.
    public static func frames(for message: String, maxFrameSize: Int = WireFraming.maxFrameSize) -> [String] {
        if fitsOneFrame(message, maxFrameSize: maxFrameSize) { return [message] }
        var frames: [String] = []
        forEachFrame(of: message, maxFrameSize: maxFrameSize) { frames.append(String(decoding: $0, as: UTF8.self)) }
        return frames
    }

    /// Calls `body` with the UTF-8 bytes of each frame that carries `message`, in order, read
    /// where they lie (a count frame's from a buffer of its own): a writer copies each once,
    /// where a first list of a hundred megabytes made into strings first was copied twice.
    public static func forEachFrame(
        of message: String, maxFrameSize: Int = WireFraming.maxFrameSize, _ body: (UnsafeBufferPointer<UInt8>) -> Void
    ) {
        var message = message
        message.withUTF8 { bytes in
            var ends: [Int] = []
            var start = 0
            while start < bytes.count {
                start = fragmentEnd(bytes, from: start, maxFrameSize: maxFrameSize)
                ends.append(start)
            }
            if ends.count <= 1 {
                body(bytes)
                return
            }
            Array(String(ends.count).utf8).withUnsafeBufferPointer(body)
            start = 0
            for end in ends {
                body(UnsafeBufferPointer(rebasing: bytes[start..<end]))
                start = end
            }
        }
    }

    /// Where the fragment starting at `start` ends: after the whole scalars that fit.
    ///
    /// As many as fit in `maxFrameSize` UTF-16 units. A window of ASCII, most of any message, is
    /// cut without stepping through it (a byte is a unit there).
    private static func fragmentEnd(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, maxFrameSize: Int) -> Int {
        let window = start + maxFrameSize
        if window >= bytes.count { return bytes.count }
        if ByteScan.isASCII(UnsafeBufferPointer(rebasing: bytes[start..<window])) { return window }
        var units = 0
        var index = start
        while index < bytes.count {
            let lead = bytes[index]
            let length = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
            let scalarUnits = length == 4 ? 2 : 1
            if units + scalarUnits > maxFrameSize { return index }
            units += scalarUnits
            index += length
        }
        return bytes.count
    }
}

/// Reassembles incoming frames into protocol messages (docs/wire-protocol.md#framing).
///
/// A frame of at most six characters that is a number starts a multi-frame message of that
/// many fragments; `0` is the client keepalive and is ignored. Any other frame is a whole message.
public struct FrameAssembler: Sendable {
    /// Why a frame sequence was refused.
    public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// The announced fragments would exceed the size limit.
        case messageTooLarge(announcedFragments: Int, limitBytes: Int)

        /// A message naming the problem.
        public var description: String {
            switch self {
            case .messageTooLarge(let fragments, let limit):
                return "a message of \(fragments) fragments exceeds the limit of \(limit) bytes"
            }
        }
    }

    private var expected = 0
    /// The fragments so far, as one run of bytes: a first list of a hundred megabytes kept as
    /// six thousand strings of 16 KB lay in the heap, where what was freed of it after stayed
    /// resident; one buffer is one block, mapped apart and handed back whole.
    private var buffer: [UInt8] = []
    private var fragments = 0
    /// The data's entries read so far in a message arriving in fragments, when counted.
    private var entries: JSONMemberCounter?
    /// The largest message accepted, in bytes; larger fragment sequences fail early.
    public let maxMessageBytes: Int
    /// Whether a message arriving in fragments has its data's entries counted as they come.
    public let countsEntries: Bool

    /// Makes an assembler that refuses messages larger than `maxMessageBytes` (well above the
    /// request limit, so that an oversized request can still be answered with `too_big`).
    ///
    /// - Parameter countsEntries: Whether to count, as fragments arrive, the entries of the
    ///   data a server's data message carries (`{"t":"d","d":{"b":{"d":{…}}}}`: a first load's
    ///   users), for ``progress``. A client's; a server has no use for it.
    public init(maxMessageBytes: Int, countsEntries: Bool = false) {
        self.maxMessageBytes = maxMessageBytes
        self.countsEntries = countsEntries
    }

    /// Whether a multi-frame message is being collected.
    public var isBuffering: Bool { expected > 0 }

    /// How far a multi-frame message has arrived: its bytes and fragments so far, the fragments
    /// announced, and the entries of its data read so far (0 unless ``countsEntries``); nil when
    /// none is arriving.
    public var progress: (bytes: Int, fragments: Int, of: Int, entries: Int)? {
        expected > 0 ? (buffer.count, fragments, expected, entries?.count ?? 0) : nil
    }

    /// Takes one frame; returns a complete message when there is one.
    public mutating func receive(_ frame: String) throws(Failure) -> String? {
        if expected > 0 {
            if buffer.count + frame.utf8.count > maxMessageBytes {
                let announced = expected
                reset()
                throw .messageTooLarge(announcedFragments: announced, limitBytes: maxMessageBytes)
            }
            buffer.append(contentsOf: frame.utf8)
            fragments += 1
            entries?.read(frame)
            if fragments == expected {
                let message = String(decoding: buffer, as: UTF8.self)
                reset()
                return message
            }
            return nil
        }
        if frame.utf8.count <= 6, let count = Int(frame) {
            if count <= 0 { return nil }  // ``WireFraming/keepalive``
            if count == 1 {
                expected = 1
                return nil
            }
            // Fragments are at most 16,384 UTF-16 units, so at least one byte each; refuse counts
            // that could not fit, and sequences that grow too large as they arrive.
            if count > maxMessageBytes {
                throw .messageTooLarge(announcedFragments: count, limitBytes: maxMessageBytes)
            }
            expected = count
            // Room for full fragments (most are), up to 64 MB; past it, the buffer grows.
            buffer.reserveCapacity(min(count * WireFraming.maxFrameSize, maxMessageBytes, 64 << 20))
            // The data's members: the message is an object (1), its `d` (2), the body `b` (3),
            // and the data `b.d` (4).
            if countsEntries { entries = JSONMemberCounter(depth: 4) }
            return nil
        }
        return frame
    }

    private mutating func reset() {
        expected = 0
        buffer = []
        fragments = 0
        entries = nil
    }
}
