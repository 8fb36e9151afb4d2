import NIOCore
import NIOWebSocket
import RTDBCore

/// The handlers a session's bytes pass after the upgrade, made as the server makes them, for the
/// fuzz target (`server-socket`) in release builds as in debug ones.
///
/// In order: NIO's frame decoder as the upgrader installs it (``SessionChannel/decoder(maxFrameBytes:)``),
/// what the server installs after it (``SessionChannel/afterDecoder(maxFrameBytes:)``: the
/// protocol-error answer and the aggregator), the ``ControlFrameHandler`` and the
/// ``MessageRateHandler``, with a tap after the first of the
/// two and a sink after the second, which report what they see as text (nil for a binary
/// message).
@_spi(Fuzzing) public enum SessionFrameHandlers {
    /// What the handlers tell whoever drives them.
    public struct Observers {
        /// A message the control frames' handler passed on.
        public var read: (String?) -> Void
        /// A message the rate's handler passed on.
        public var delivered: (String?) -> Void
        /// A close code the control frames' handler asked for.
        public var protocolError: (UInt16) -> Void
        /// The peer's close.
        public var peerClosed: () -> Void
        /// The first time the peer went over its rate.
        public var throttled: () -> Void

        /// Observers of all five.
        public init(
            read: @escaping (String?) -> Void, delivered: @escaping (String?) -> Void,
            protocolError: @escaping (UInt16) -> Void, peerClosed: @escaping () -> Void,
            throttled: @escaping () -> Void
        ) {
            (self.read, self.delivered, self.protocolError) = (read, delivered, protocolError)
            (self.peerClosed, self.throttled) = (peerClosed, throttled)
        }
    }

    /// The handlers, in pipeline order, for frames of at most `maxFrameBytes` and `perSecond`
    /// messages a second on `now`'s clock; `schedule(wait, resume)` must run `resume` on the
    /// channel's loop once `wait` has passed.
    public static func make(
        maxFrameBytes: Int, perSecond: Int, now: @escaping () -> UnixTime,
        schedule: @escaping (Duration, @escaping () -> Void) -> Void, observers: Observers
    ) -> [any ChannelHandler] {
        [SessionChannel.decoder(maxFrameBytes: maxFrameBytes)]
            + SessionChannel.afterDecoder(maxFrameBytes: maxFrameBytes)
            + [
                ControlFrameHandler(
                    protocolError: { observers.protocolError(UInt16(webSocketErrorCode: $0)) },
                    peerClosed: observers.peerClosed),
                Tap(observers.read, passes: true),
                MessageRateHandler(
                    perSecond: perSecond, now: now, schedule: schedule,
                    hooks: MessageRateHandler.Hooks(firstThrottle: observers.throttled, paused: { _ in })),
                Tap(observers.delivered, passes: false),
            ]
    }

    /// Reports each message it reads, and passes it on or not.
    private final class Tap: ChannelInboundHandler {
        typealias InboundIn = PeerMessage
        typealias InboundOut = PeerMessage
        private let report: (String?) -> Void
        private let passes: Bool

        init(_ report: @escaping (String?) -> Void, passes: Bool) {
            self.report = report
            self.passes = passes
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let message = unwrapInboundIn(data)
            if case .text(let text) = message { report(text) } else { report(nil) }
            if passes { context.fireChannelRead(data) }
        }
    }
}
