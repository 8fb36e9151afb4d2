import WatchModel

/// What the sparklines draw: a sample a second of the users online and, with a device of its
/// own, its connection, clock skew, queue depth and writes drained.
public struct Samples: Sendable, Equatable {
    /// This device's connection, a mark a second.
    public var connection = History<ConnectionMark>(capacity: 120)
    /// This device's clock-skew estimate (ms), a sample a second.
    public var skew = History<Double>(capacity: 120)
    /// This device's queue depth, a sample a second.
    public var queue = History<Int>(capacity: 120)
    /// Writes acknowledged, a count a second.
    public var drain = History<Int>(capacity: 120)
    /// Users online, a count a second.
    public var online = History<Int>(capacity: 120)
    /// Writes acknowledged in the current second.
    public var acknowledgedThisSecond = 0
    /// The most writes acknowledged in one second.
    public var peakDrain = 0
    /// The second of the last sample.
    public var second: Int64 = 0

    /// None yet.
    public init() {}

    /// Takes the sample of `second` (once a second: a later call in the same second does
    /// nothing): `online` users, and `device` as it stands.
    mutating func take(second: Int64, online: Int, device: WatchSnapshot.ThisDevice?) {
        guard second > self.second else { return }
        self.second = second
        self.online.append(online)
        guard let device else { return }
        let mark: ConnectionMark
        switch device.status.phase {
        case .connected: mark = device.link.mode == .blackhole ? .blackholed : .connected
        case .connecting: mark = .connecting
        case .offline, .waitingToRetry: mark = .disconnected
        }
        connection.append(mark)
        if let estimate = device.status.clockSkew { skew.append(estimate.offset.inMilliseconds) }
        queue.append(device.pendingWrites.count)
        drain.append(acknowledgedThisSecond)
        peakDrain = max(peakDrain, acknowledgedThisSecond)
        acknowledgedThisSecond = 0
    }
}
