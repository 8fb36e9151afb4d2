import Foundation

/// What the benchmarks share: percentiles of timed samples, and scratch folders.
enum BenchSupport {
    /// The value at `percentile` (0–100) of `values`, 0 when there are none; 50 is the median.
    static func percentile(_ values: [Double], _ percentile: Int) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, sorted.count * percentile / 100)]
    }

    /// A fresh folder path under the temporary directory (not yet made), for one run's files.
    static func scratchDirectory(_ purpose: String = "bench") -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("presencetop-\(purpose)-\(UUID().uuidString)")
    }

    /// Makes a fresh scratch folder that `report` removes when the run ends or is interrupted.
    static func makeScratchDirectory(for report: BenchReport, _ purpose: String = "bench") throws -> URL {
        let directory = scratchDirectory(purpose)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        report.onExit("the scratch folder") { try? FileManager.default.removeItem(at: directory) }
        return directory
    }
}
