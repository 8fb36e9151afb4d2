import NIOCore
import NIOEmbedded
import NIOWebSocket
import RTDBCore
@_spi(Fuzzing) import RTDBServer

extension FuzzTarget {
    /// What a server's session reads after the upgrade, as it reads it, and what it answers.
    public struct ServerSocketRun: Equatable, Sendable {
        /// The messages past the control frames' handler, in order (nil: binary).
        public var read: [String?] = []
        /// The messages past the rate's handler, in order.
        public var delivered: [String?] = []
        /// The frames the server sent: opcode and payload.
        public var sent: [Sent] = []
        /// The close codes asked for.
        public var protocolErrors: [UInt16] = []
        /// How often the peer's close was heard.
        public var peerClosed = 0
        /// How often the peer's first throttle was told.
        public var throttled = 0

        /// A frame the server sent.
        public struct Sent: Equatable, Sendable {
            /// Its opcode (RFC 6455 §5.2).
            public var opcode: UInt8
            /// Its payload, unmasked.
            public var payload: [UInt8]
        }
    }

    /// The largest frame the target's session takes (the server's default is 16 MiB; small here,
    /// so that inputs reach the limit).
    static let serverSocketMaxFrame = 4_096

    /// A peer's bytes, as a server's session reads them: NIO's frame decoder, the aggregator, the
    /// control frames' handler and the rate's (2 messages a second on a clock that moves 100 ms
    /// a read), in an in-memory channel.
    ///
    /// The input is cut into reads where it holds 0xFF 0xFE. Whatever the bytes: every message
    /// read is delivered once, in order, once the waits are over or the peer has gone (the
    /// rate slows a peer, never drops or reorders what it said); no message is over the frame
    /// limit; the server sends only pongs (each a ping's payload) and closes; the peer's first
    /// throttle is told once at most.
    @discardableResult
    public static func serverSocket(_ bytes: [UInt8]) -> ServerSocketRun {
        final class Box { var run = ServerSocketRun() }
        let box = Box()
        var time = UnixTime(millisecondsSince1970: 1_700_000_000_000)
        var resumes: [(at: UnixTime, resume: () -> Void)] = []
        let observers = SessionFrameHandlers.Observers(
            read: { box.run.read.append($0) }, delivered: { box.run.delivered.append($0) },
            protocolError: { box.run.protocolErrors.append($0) }, peerClosed: { box.run.peerClosed += 1 },
            throttled: { box.run.throttled += 1 })
        let handlers = SessionFrameHandlers.make(
            maxFrameBytes: serverSocketMaxFrame, perSecond: 2, now: { time },
            schedule: { wait, resume in resumes.append((time + wait, resume)) }, observers: observers)
        let channel = EmbeddedChannel()
        guard (try? channel.pipeline.syncOperations.addHandlers(handlers)) != nil,
            (try? channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()) != nil
        else { return box.run }
        func runDue() {
            while let next = resumes.indices.first(where: { resumes[$0].at <= time }) {
                resumes.remove(at: next).resume()
            }
        }
        func read(_ slice: ArraySlice<UInt8>) {
            _ = try? channel.writeInbound(ByteBuffer(bytes: slice))
            time = time + .milliseconds(100)
            runDue()
        }
        var start = 0
        for index in bytes.indices where index + 1 < bytes.count && bytes[index] == 0xFF && bytes[index + 1] == 0xFE {
            read(bytes[start..<index])
            start = index + 2
        }
        read(bytes[min(start, bytes.count)...])
        // Half the reads end with the waits over, half with the peer gone while it waits.
        if bytes.count.isMultiple(of: 2) {
            while let last = resumes.map(\.at).max() {
                time = max(time, last)
                runDue()
            }
        }
        _ = try? channel.close().wait()
        // A wait still scheduled holds the handler's context, which holds the handler, whose
        // schedule holds this list: let go of them, or every input leaks its channel.
        resumes.removeAll()
        while let frame = try? channel.readOutbound(as: WebSocketFrame.self) {
            box.run.sent.append(.init(opcode: UInt8(webSocketOpcode: frame.opcode), payload: Array(buffer: frame.data)))
        }
        // Torn down, or each input leaks its channel (a closed EmbeddedChannel that is never
        // finished keeps about 5 KiB).
        _ = try? channel.finish(acceptAlreadyClosed: true)
        let run = box.run
        fuzzInvariant(run.delivered == run.read, "the rate dropped or reordered messages: \(run)")
        fuzzInvariant(
            run.read.allSatisfy { ($0?.utf8.count ?? 0) <= serverSocketMaxFrame }, "a message over the frame limit")
        fuzzInvariant(run.throttled <= 1, "the first throttle told more than once")
        for frame in run.sent {
            let opcode = WebSocketOpcode(encodedWebSocketOpcode: frame.opcode)
            fuzzInvariant(opcode == .pong || opcode == .connectionClose, "the server sent a \(frame.opcode) frame")
            if opcode == .pong { fuzzInvariant(frame.payload.count <= 125, "a pong over 125 bytes") }
        }
        return run
    }
}
