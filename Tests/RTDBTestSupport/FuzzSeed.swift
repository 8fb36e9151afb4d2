import Foundation

/// The seed and the rounds of the seeded network fuzz tests: `PRESENCETOP_FUZZ_SEED` (a failure
/// names it, and the same seed replays the same inputs) and `PRESENCETOP_FUZZ_ROUNDS` (300 by
/// default, as in CI).
public enum FuzzSeed {
    /// The generator's seed (1 unless set).
    public static let seed = ProcessInfo.processInfo.environment["PRESENCETOP_FUZZ_SEED"].flatMap { UInt64($0) } ?? 1
    /// How many inputs of each kind.
    public static let rounds =
        ProcessInfo.processInfo.environment["PRESENCETOP_FUZZ_ROUNDS"].flatMap { Int($0) } ?? 300
}
