/// A small, fast, seedable random number generator (SplitMix64) for deterministic tests and
/// simulations.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// Makes a generator; the same seed gives the same sequence.
    public init(seed: UInt64) {
        self.state = seed
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }
}
