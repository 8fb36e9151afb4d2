import LinkSim
import RTDBCore

/// The faults of a chaos run, drawn from its seed before it starts: the same seed gives the same
/// faults at the same moments, so a failing run can be replayed.
public enum ChaosSchedule {
    /// Every fault kind, as ``ChaosFault/kind`` names them.
    public static let kinds = [
        "offline", "blackhole", "latency", "bandwidth", "crash", "clock jump", "credential expiry", "server kill",
        "disk",
    ]

    /// Faults for `devices` devices over `duration` seconds: about one per twenty devices per
    /// second, a server kill every 90 s or so (at least one), a device's full disk per two hundred
    /// devices per second and the server's every 60 s or so (at least one of each).
    ///
    /// - Parameter kinds: Keeps only faults of these kinds (``ChaosFault/kind``); the others are
    ///   still drawn, so the kept ones strike as they would in the full run.
    public static func events(seed: UInt64, devices: Int, duration: Double, kinds: Set<String>? = nil) -> [ChaosEvent] {
        var random = SeededRandom(seed: seed)
        func uniform(_ range: ClosedRange<Double>) -> Double { Double.random(in: range, using: &random) }
        var events: [ChaosEvent] = []
        guard devices > 0, duration > 0 else { return [] }
        // Faults leave the last fifth of the run alone, so the last ones end before healing.
        let window = duration * 0.8
        let count = max(1, Int((Double(devices) / 20 * window).rounded()))
        for _ in 0..<count {
            let at = uniform(0...window)
            let device = Int.random(in: 0..<devices, using: &random)
            let fault: ChaosFault
            switch Int.random(in: 0..<100, using: &random) {
            case 0..<22: fault = .offline(seconds: uniform(0.5...6))
            case 22..<40: fault = .blackhole(seconds: uniform(0.5...8))
            case 40..<55:
                fault = .latency(milliseconds: Int.random(in: 200...2_000, using: &random), seconds: uniform(1...6))
            case 55..<65:
                fault = .bandwidth(bytesPerSecond: Int.random(in: 500...4_000, using: &random), seconds: uniform(1...6))
            case 65..<80: fault = .crash(downSeconds: uniform(0.5...5))
            case 80..<90: fault = .clockJump(milliseconds: Int64.random(in: -600_000...600_000, using: &random))
            default: fault = .credentialExpiry(seconds: uniform(1...5))
            }
            events.append(ChaosEvent(at: at, device: device, fault: fault))
        }
        let kills = max(1, Int(duration / 90))
        for index in 0..<kills {
            // One kill in each stretch of the window, away from its edges.
            let stretch = window / Double(kills)
            let at = stretch * Double(index) + uniform(stretch * 0.2...stretch * 0.8)
            events.append(ChaosEvent(at: at, device: nil, fault: .serverKill(downSeconds: uniform(0.5...3))))
        }
        // Drawn from a stream of their own, after the others: a seed keeps the faults it had
        // before full disks were added.
        var disks = SeededRandom(seed: seed ^ 0xD15C_F111)
        for _ in 0..<max(1, Int((Double(devices) / 200 * window).rounded())) {
            let at = Double.random(in: 0...window, using: &disks)
            let device = Int.random(in: 0..<devices, using: &disks)
            events.append(
                ChaosEvent(at: at, device: device, fault: .diskFull(seconds: .random(in: 0.5...5, using: &disks))))
        }
        for _ in 0..<max(1, Int(duration / 60)) {
            let at = Double.random(in: 0...window, using: &disks)
            events.append(
                ChaosEvent(at: at, device: nil, fault: .serverDiskFull(seconds: .random(in: 1...4, using: &disks))))
        }
        return events.filter { kinds?.contains($0.fault.kind) ?? true }.sorted {
            ($0.at, $0.device ?? -1) < ($1.at, $1.device ?? -1)
        }
    }
}
