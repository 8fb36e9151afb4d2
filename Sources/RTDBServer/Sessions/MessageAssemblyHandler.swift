import NIOCore
import RTDBCore
import RTDBWire

/// Takes a live session's messages apart into requests (``InboundMessages``).
///
/// A text message is a request, a part of one, a ping answered here, or what ends the session;
/// a binary message is refused with a word to the client. Nothing is taken while the connection
/// closes.
///
/// Added by the ``SessionHandler`` once the session is live, before the ``RequestWindowHandler``.
final class MessageAssemblyHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = PeerMessage
    typealias InboundOut = SessionRequest

    /// What it tells the session.
    struct Hooks {
        /// A problem with what the peer sent, for the client (and the log).
        var tell: (String) -> Void
        /// What the peer sent ends the session.
        var end: () -> Void
        /// Whether the connection is closing.
        var isClosing: () -> Bool
    }

    private var messages: InboundMessages
    private let outlet: Outlet
    private let hooks: Hooks

    /// Takes messages apart with `messages`; pongs go to `outlet`.
    init(messages: InboundMessages, outlet: Outlet, hooks: Hooks) {
        self.messages = messages
        self.outlet = outlet
        self.hooks = hooks
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !hooks.isClosing() else { return }
        switch unwrapInboundIn(data) {
        case .text(let text):
            if let request = assemble(text) { context.fireChannelRead(wrapInboundOut(request)) }
        case .binary:
            hooks.tell("binary frames are not part of protocol v5")
        }
    }

    /// The request `text` completes, if it completes one (it may be a part of a request, or end
    /// the session); for messages taken with no pipeline left (the connection closed as the
    /// session opened).
    func assemble(_ text: String) -> SessionRequest? {
        switch messages.take(text, outlet: outlet, report: hooks.tell) {
        case .nothing:
            return nil
        case .request(let request):
            return request
        case .end:
            hooks.end()
            return nil
        }
    }
}
