import RTDBCore

/// A token bucket for one connection's messages: `perSecond` on average, as many at once.
struct MessageBudget {
    let perSecond: Int
    private var tokens: Double
    private var last: UnixTime?

    /// A full bucket.
    init(perSecond: Int) {
        self.perSecond = max(1, perSecond)
        tokens = Double(self.perSecond)
    }

    /// Spends one message at `now`; when the bucket is empty, how long to wait for it.
    mutating func spend(now: UnixTime) -> Duration? {
        if let last, now > last {
            tokens = min(Double(perSecond), tokens + (now - last).inSeconds * Double(perSecond))
        }
        last = now
        tokens -= 1
        guard tokens < 0 else { return nil }
        // Wait until the debt is paid, at least a millisecond.
        return .milliseconds(max(1, Int64((-tokens * 1000 / Double(perSecond)).rounded(.up))))
    }
}
