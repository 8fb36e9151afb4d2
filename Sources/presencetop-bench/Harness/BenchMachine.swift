import Foundation
import RTDBCore

/// The machine a benchmark ran on, printed beside its figures (they mean little without it).
struct BenchMachine: Sendable {
    /// Cores the process may use.
    var cores: Int
    /// Physical memory, in bytes.
    var memoryBytes: UInt64
    /// `release` or `debug`: figures from a debug build are not worth comparing.
    var build: String
    /// The operating system's version string.
    var system: String

    /// This machine, this build.
    static let current: BenchMachine = {
        #if DEBUG
            let build = "debug"
        #else
            let build = "release"
        #endif
        let info = ProcessInfo.processInfo
        return BenchMachine(
            cores: info.activeProcessorCount, memoryBytes: info.physicalMemory, build: build,
            system: info.operatingSystemVersionString)
    }()

    /// `2 cores, 7.8 GiB, release build, Ubuntu 24.04.1 LTS`.
    var description: String {
        let gibibytes = Double(memoryBytes) / 1_073_741_824
        return String(format: "%d cores, %.1f GiB, %@ build, %@", cores, gibibytes, build, system)
    }

    /// The same as a JSON object.
    var json: JSONValue {
        [
            "cores": .int(Int64(cores)), "memory_bytes": .int(Int64(clamping: memoryBytes)), "build": .string(build),
            "system": .string(system),
        ]
    }
}
