import RTDBCore

/// Measures the round trip and the server's clock: the handshake and each ping's pong give a
/// sample; the estimate is the sample with the shortest round trip among the last eight (the
/// tightest bound), and a wall-clock step (``ClockJumpDetector``) throws the samples away.
struct ServerClockSampler {
    /// When the current attempt opened its transport (the handshake's sample starts there).
    var attemptStartedAt = UnixTime.epoch
    /// When the ping in flight was sent, if one is.
    var pingSentAt: UnixTime?
    /// Notices steps of the wall clock.
    var clockJumps: ClockJumpDetector
    private var samples: [(offset: Duration, roundTrip: Duration)] = []

    /// A sampler on `time`'s clocks.
    init(_ time: TimeSource) { clockJumps = ClockJumpDetector(time) }

    /// Takes a sample (the server said `serverTime` between `sentAt` and `receivedAt`) and returns
    /// the best offset and its error bound.
    ///
    /// A sample whose interval (offset ± half its round trip) does not overlap the current best's
    /// means a clock stepped (the user set it, or NTP did): the older samples describe a clock
    /// that no longer exists and are dropped.
    mutating func add(serverTime: UnixTime, sentAt: UnixTime, receivedAt: UnixTime) -> (
        offset: Duration, errorBound: Duration
    ) {
        let roundTrip = receivedAt - sentAt
        let offset = (serverTime - sentAt) - roundTrip / 2
        if let best = best,
            max(best.offset - offset, offset - best.offset) > (best.roundTrip + roundTrip) / 2 + .milliseconds(1)
        {
            samples.removeAll()
        }
        samples.append((offset, roundTrip))
        if samples.count > 8 { samples.removeFirst() }
        let chosen = best ?? (offset, roundTrip)
        return (chosen.offset, chosen.roundTrip / 2)
    }

    /// Forgets the samples and the ping in flight (taken on a clock that has since stepped).
    mutating func forgetSamples() {
        samples.removeAll()
        pingSentAt = nil
    }

    private var best: (offset: Duration, roundTrip: Duration)? { samples.min { $0.roundTrip < $1.roundTrip } }
}
