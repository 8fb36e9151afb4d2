import RTDBCore

extension PersistentConnection {
    /// Looks for a step of the wall clock (at every message and keepalive tick).
    ///
    /// On one, the server-time offset moves by the step at once (and `.info/serverTimeOffset`
    /// with it), the skew estimate starts again from the moved offset, and a ping measures it
    /// anew. Firebase's SDKs keep the old offset until the next handshake.
    func noticeClockJumps() {
        guard let step = serverClock.clockJumps.look() else { return }
        let whole = Duration.milliseconds(step.wholeMilliseconds)
        status.serverTimeOffset -= whole
        if var skew = status.clockSkew {
            skew.offset -= step
            status.clockSkew = skew
        }
        // Samples and a ping in flight were taken on the clock before the step.
        serverClock.forgetSamples()
        status.lastClockJump = ClockJump(noticedAt: clock(), by: step)
        // The status first: whoever `.info/serverTimeOffset`'s event wakes finds the step in it.
        delegate?.connectionStatusDidChange(status)
        delegate?.connectionServerTimeOffsetDidChange(status.serverTimeOffset)
        sendPing()
    }
}
