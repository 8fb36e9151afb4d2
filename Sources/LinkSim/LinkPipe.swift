import NIOCore
import NIOPosix
import RTDBCore

/// One connection through a link: the client's socket, the server's, and what travels between
/// them, delayed or held as the link's mode and conditions say.
///
/// Lives on one event loop (both sockets use it); the link reaches it through `NIOLoopBound`.
///
/// Back-pressure runs end to end: bytes are handed to a socket only while it is writable (its
/// unsent bytes are under NIO's write-buffer water mark), so a side that does not read leaves
/// what is meant for it in the queue; past ``highWater`` queued bytes the other side is no longer
/// read, and TCP slows its sender. What is held counts the queue and the bytes handed to a socket
/// and not yet sent.
final class LinkPipe {
    /// Which end of the connection.
    enum Side { case client, server }

    /// What travels: bytes, or the news that the sender closed.
    enum Item {
        case bytes(ByteBuffer)
        case close
    }

    /// Past this many bytes on their way one way, the sender is no longer read (TCP's window).
    static let highWater = 1 << 20
    /// The bytes handed to each side's socket and not yet sent.
    private var unsent: [Side: Int] = [.client: 0, .server: 0]
    /// The side whose sender closed: the connection ends once what was sent to it is sent.
    private var closingToward: Side?

    let id: Int
    let eventLoop: any EventLoop
    private let link: LinkProxy
    private var mode: LinkMode
    private var conditions: LinkConditions
    private var random: SeededRandom
    private var client: (any Channel)?
    private var server: (any Channel)?
    private var connecting = false
    private var ended: Set<Side> = []
    private var finished = false
    /// Client to server, and server to client.
    private var upstream = DeliveryQueue<Item>()
    private var downstream = DeliveryQueue<Item>()
    private var timers: [Side: Scheduled<Void>] = [:]

    init(
        id: Int, client: any Channel, link: LinkProxy, mode: LinkMode, conditions: LinkConditions, seed: UInt64
    ) {
        self.id = id
        // Known from the start: the server may refuse before the client's socket is active.
        self.client = client
        self.eventLoop = client.eventLoop
        self.link = link
        self.mode = mode
        self.conditions = conditions
        self.random = SeededRandom(seed: seed)
    }

    // MARK: - Events from the sockets

    func opened(_ side: Side, channel: any Channel) {
        switch side {
        case .client:
            if finished { channel.close(promise: nil) }
        case .server:
            connecting = false
            // The client may have gone while the server was being reached.
            guard !finished else { return channel.close(promise: nil) }
            server = channel
            drain(toward: .server)
        }
    }

    func received(_ buffer: ByteBuffer, from side: Side) {
        guard !finished else { return }
        followLink()
        guard !finished else { return }
        enqueue(.bytes(buffer), size: buffer.readableBytes, from: side)
    }

    func ended(_ side: Side) {
        followLink()
        guard !finished, ended.insert(side).inserted else { return }
        if side == .server, connecting || server == nil {
            // The server could not be reached: the client's connection fails as it would.
            return finish()
        }
        enqueue(.close, size: 0, from: side)
    }

    /// A side's socket can take bytes again: what waited for it goes on.
    func becameWritable(_ side: Side) {
        drain(toward: side)
    }

    /// The server could not be reached.
    func connectFailed() {
        connecting = false
        finish()
    }

    // MARK: - The link changes

    /// Takes on the link's mode and conditions if they changed.
    ///
    /// The link tells each pipe of a change on the pipe's event loop, but bytes read before that
    /// task runs must already be treated under the new mode: a write made right after
    /// `link.mode = .blackhole` is held, never delivered. So the pipe also looks before each read.
    func followLink() {
        let stats = link.stats
        guard stats.mode != mode || stats.conditions != conditions else { return }
        apply(mode: stats.mode, conditions: stats.conditions)
    }

    private func apply(mode newMode: LinkMode, conditions newConditions: LinkConditions) {
        mode = newMode
        conditions = newConditions
        guard !finished else { return }
        switch newMode {
        case .offline: finish()
        case .blackhole: cancelTimers()
        case .up:
            connectIfNeeded()
            drain(toward: .server)
            drain(toward: .client)
        }
    }

    func connectIfNeeded() {
        guard mode == .up, server == nil, !connecting, !finished else { return }
        connecting = true
        link.connectUpstream(for: self)
    }

    /// Closes both sockets and drops what was on its way.
    func finish() {
        guard !finished else { return }
        finished = true
        cancelTimers()
        link.record { stats in
            stats.bytesHeld -= upstream.heldBytes + downstream.heldBytes + unsent.values.reduce(0, +)
            stats.openConnections -= 1
        }
        unsent = [.client: 0, .server: 0]
        upstream.removeAll()
        downstream.removeAll()
        client?.close(promise: nil)
        server?.close(promise: nil)
        link.unregister(self)
    }

    // MARK: - Delivery

    private func enqueue(_ item: Item, size: Int, from side: Side) {
        let now = NIODeadline.now().uptimeNanoseconds
        if side == .client {
            upstream.enqueue(item, size: size, now: now, conditions: conditions, random: &random)
        } else {
            downstream.enqueue(item, size: size, now: now, conditions: conditions, random: &random)
        }
        link.record { $0.bytesHeld += size }
        if held(from: side) > Self.highWater { setReading(side, false) }
        drain(toward: side == .client ? .server : .client)
    }

    private func held(from side: Side) -> Int { side == .client ? upstream.heldBytes : downstream.heldBytes }

    /// Delivers what is due toward `target`, and sets a timer for the next item.
    private func drain(toward target: Side) {
        guard !finished, mode == .up else { return }
        guard let channel = target == .server ? server : client else { return }
        timers.removeValue(forKey: target)?.cancel()
        let now = NIODeadline.now().uptimeNanoseconds
        var written = 0
        var closes = false
        // Only while the socket takes more: a reader that does not read holds the rest here.
        while channel.isWritable,
            let entry = target == .server ? upstream.takeFirstDue(now: now) : downstream.takeFirstDue(now: now)
        {
            guard case .bytes(let buffer) = entry.item else {
                closes = true
                break
            }
            written += entry.size
            unsent[target, default: 0] += entry.size
            let size = entry.size
            let sent = eventLoop.makePromise(of: Void.self)
            sent.futureResult.hop(to: eventLoop).assumeIsolated().whenComplete { [self] _ in
                guard !finished else { return }
                unsent[target, default: 0] -= size
                link.record { stats in
                    stats.bytesHeld -= size
                    if target == .server { stats.bytesUp += size } else { stats.bytesDown += size }
                }
                if closingToward == target, unsent[target] == 0 { finish() }
            }
            channel.write(buffer, promise: sent)
        }
        if written > 0 { channel.flush() }
        if !channel.isWritable, !closes { return }  // becameWritable goes on from here
        let source: Side = target == .server ? .client : .server
        if held(from: source) < Self.highWater / 2 { setReading(source, true) }
        if closes {
            // The other end closed: this one hears of it once what it sent before has arrived.
            guard unsent[target] ?? 0 > 0 else { return finish() }
            closingToward = target
            return
        }
        let next = target == .server ? upstream.nextDueAt : downstream.nextDueAt
        if let next {
            timers[target] = eventLoop.assumeIsolated().scheduleTask(deadline: .uptimeNanoseconds(next)) { [self] in
                timers.removeValue(forKey: target)
                drain(toward: target)
            }
        }
    }

    private func setReading(_ side: Side, _ reading: Bool) {
        guard let channel = side == .client ? client : server, !ended.contains(side) else { return }
        channel.setOption(ChannelOptions.autoRead, value: reading).whenFailure { _ in }
    }

    private func cancelTimers() {
        for timer in timers.values { timer.cancel() }
        timers.removeAll()
    }
}
