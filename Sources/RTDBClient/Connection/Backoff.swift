import RTDBCore

/// How long to wait before the next connection attempt: the policy's exponential delay for the
/// failures so far, with jitter drawn from a seeded generator (a confined engine's) or the
/// system's.
struct Backoff {
    /// The delays, the connect timeout and the keepalive interval.
    let policy: RetryPolicy
    /// Where the jitter comes from in a confined engine (else the system's).
    private var random: SeededRandom?
    /// Attempts failed since the last reset.
    private(set) var failures = 0

    /// A back-off under `policy`, its jitter from `random` if given.
    init(policy: RetryPolicy, random: SeededRandom?) {
        self.policy = policy
        self.random = random
    }

    /// Counts a failed attempt and returns the wait before the next, in whole milliseconds (so
    /// that the wait is exactly the one a `retryAt` shows).
    mutating func failed() -> Duration {
        failures += 1
        var draw = Double.random(in: 0..<1)
        if var seeded = random {
            draw = Double.random(in: 0..<1, using: &seeded)
            random = seeded
        }
        return .milliseconds(policy.delay(afterFailures: failures, random: draw).wholeMilliseconds)
    }

    /// Starts counting again (resumed by the app, or connected long enough).
    mutating func reset() { failures = 0 }

    /// The number of the next attempt (1 for the first).
    var nextAttempt: Int { failures + 1 }
}
