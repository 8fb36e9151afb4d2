import DequeModule
import NIOCore
import NIOWebSocket
import RTDBCore

/// A session's message rate: a peer over its budget (``MessageBudget``) has the message that
/// went over passed on, then nothing more read until the debt is paid (TCP slows it); messages
/// already read wait here in order, and each spends the budget as it goes on.
///
/// The wait is scheduled through an injected function, so a test runs it by hand in an
/// `EmbeddedChannel`; the session is told once, at the first wait, and each time reading
/// pauses and resumes (the heartbeat does not take the server's own pause for the peer's
/// silence).
final class MessageRateHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = PeerMessage
    typealias InboundOut = PeerMessage
    typealias OutboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    /// What the handler tells its session.
    struct Hooks {
        /// The first time the peer goes over its rate.
        var firstThrottle: () -> Void
        /// Reading paused (true) or resumed (false) for the rate.
        var paused: (Bool) -> Void
    }

    private var budget: MessageBudget
    private let now: () -> UnixTime
    private let schedule: (Duration, @escaping () -> Void) -> Void
    private let hooks: Hooks
    private var isPaused = false
    private var readAsked = false
    private var toldOnce = false
    private var waiting = Deque<PeerMessage>()

    /// Allows `perSecond` messages a second on `now`'s clock; `schedule(wait, resume)` runs
    /// `resume` on the channel's event loop once `wait` has passed.
    init(
        perSecond: Int, now: @escaping () -> UnixTime, schedule: @escaping (Duration, @escaping () -> Void) -> Void,
        hooks: Hooks
    ) {
        budget = MessageBudget(perSecond: perSecond)
        self.now = now
        self.schedule = schedule
        self.hooks = hooks
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let message = unwrapInboundIn(data)
        if isPaused || !waiting.isEmpty {
            waiting.append(message)
        } else {
            pass(message, context: context)
        }
    }

    func read(context: ChannelHandlerContext) {
        if isPaused { readAsked = true } else { context.read() }
    }

    /// The connection closed: what was read is still the peer's, and goes on at once.
    func channelInactive(context: ChannelHandlerContext) {
        while let message = waiting.popFirst() { context.fireChannelRead(wrapInboundOut(message)) }
        context.fireChannelInactive()
    }

    /// Passes `message` on; a text message over the budget then pauses reading for the debt.
    private func pass(_ message: PeerMessage, context: ChannelHandlerContext) {
        guard case .text = message, let wait = budget.spend(now: now()) else {
            context.fireChannelRead(wrapInboundOut(message))
            return
        }
        context.fireChannelRead(wrapInboundOut(message))
        if !toldOnce {
            toldOnce = true
            hooks.firstThrottle()
        }
        isPaused = true
        hooks.paused(true)
        schedule(wait) { [weak self, context] in self?.resume(context: context) }
    }

    private func resume(context: ChannelHandlerContext) {
        guard isPaused else { return }
        isPaused = false
        hooks.paused(false)
        while !isPaused, let message = waiting.popFirst() { pass(message, context: context) }
        guard !isPaused, readAsked else { return }
        readAsked = false
        context.read()
    }
}
