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
    enum Side: Int {
        case client, server

        /// The other end.
        var other: Side { self == .client ? .server : .client }
    }

    /// What travels: bytes, or the news that the sender closed.
    enum Item {
        case bytes(ByteBuffer)
        case close
    }

    /// Past this many bytes on their way one way, the sender is no longer read (TCP's window).
    static let highWater = 1 << 20
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
    /// The sides not read now: too much of what they sent waits for the other (back-pressure).
    private var unread: Set<Side> = []
    private var finished = false
    /// What travels toward each side (by ``Side/rawValue``): toward the client, toward the server.
    private var lanes = [PipeLane(), PipeLane()]

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
            stats.bytesHeld -= lanes.reduce(0) { $0 + $1.queue.heldBytes + $1.unsent }
            stats.openConnections -= 1
            stats.sidesNotRead -= unread.count
        }
        unread = []
        for index in lanes.indices { lanes[index].clear() }
        client?.close(promise: nil)
        server?.close(promise: nil)
        link.unregister(self)
    }

    // MARK: - Delivery

    private func enqueue(_ item: Item, size: Int, from side: Side) {
        let now = NIODeadline.now().uptimeNanoseconds
        lanes[side.other.rawValue].queue.enqueue(item, size: size, now: now, conditions: conditions, random: &random)
        link.record { $0.bytesHeld += size }
        if held(from: side) > Self.highWater { setReading(side, false) }
        drain(toward: side.other)
    }

    /// The bytes from `side` on their way to the other.
    private func held(from side: Side) -> Int { lanes[side.other.rawValue].queue.heldBytes }

    /// Delivers what is due toward `target`, and sets a timer for the next item.
    private func drain(toward target: Side) {
        guard !finished, mode == .up else { return }
        guard let channel = target == .server ? server : client else { return }
        let lane = target.rawValue
        lanes[lane].cancelTimer()
        let now = NIODeadline.now().uptimeNanoseconds
        var written = 0
        var closes = false
        // Only while the socket takes more: a reader that does not read holds the rest here.
        while channel.isWritable,
            let entry = lanes[lane].queue.takeFirstDue(now: now)
        {
            guard case .bytes(let buffer) = entry.item else {
                closes = true
                break
            }
            written += entry.size
            lanes[lane].unsent += entry.size
            let size = entry.size
            let sent = eventLoop.makePromise(of: Void.self)
            sent.futureResult.hop(to: eventLoop).assumeIsolated().whenComplete { [self] _ in
                guard !finished else { return }
                lanes[lane].unsent -= size
                link.record { stats in
                    stats.bytesHeld -= size
                    if target == .server { stats.bytesUp += size } else { stats.bytesDown += size }
                }
                if closingToward == target, lanes[lane].unsent == 0 { finish() }
            }
            channel.write(buffer, promise: sent)
        }
        if written > 0 { channel.flush() }
        if !channel.isWritable, !closes { return }  // becameWritable goes on from here
        if held(from: target.other) < Self.highWater / 2 { setReading(target.other, true) }
        if closes {
            // The other end closed: this one hears of it once what it sent before has arrived.
            guard lanes[lane].unsent > 0 else { return finish() }
            closingToward = target
            return
        }
        if let next = lanes[lane].queue.nextDueAt {
            lanes[lane].timer = eventLoop.assumeIsolated().scheduleTask(deadline: .uptimeNanoseconds(next)) {
                [self] in
                lanes[lane].timer = nil
                drain(toward: target)
            }
        }
    }

    private func setReading(_ side: Side, _ reading: Bool) {
        guard let channel = side == .client ? client : server, !ended.contains(side) else { return }
        let changed = reading ? unread.remove(side) != nil : unread.insert(side).inserted
        guard changed else { return }
        link.record { $0.sidesNotRead += reading ? -1 : 1 }
        channel.setOption(ChannelOptions.autoRead, value: reading).whenFailure { _ in }
    }

    private func cancelTimers() {
        for index in lanes.indices { lanes[index].cancelTimer() }
    }
}
