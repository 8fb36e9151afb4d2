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

    /// A TCP port on the loopback that nothing listens on now (for a child server's `--port`).
    static func freePort() throws -> Int {
        #if canImport(Glibc)
            let stream = Int32(SOCK_STREAM.rawValue)
        #else
            let stream = SOCK_STREAM
        #endif
        let socket = Foundation.socket(AF_INET, stream, 0)
        guard socket >= 0 else { throw POSIXError(.EMFILE) }
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else { throw POSIXError(.EADDRINUSE) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Raises this process's open-file limit to its hard limit (children inherit it); the limit now.
    static func raiseDescriptorLimit() -> Int {
        var limit = rlimit()
        #if canImport(Glibc)
            let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        #else
            let resource = RLIMIT_NOFILE
        #endif
        guard getrlimit(resource, &limit) == 0 else { return 1_024 }
        limit.rlim_cur = limit.rlim_max
        _ = setrlimit(resource, &limit)
        _ = getrlimit(resource, &limit)
        return Int(clamping: limit.rlim_cur)
    }

    /// A process's resident memory in bytes (VmRSS in /proc), 0 when it cannot be read.
    static func residentBytes(of pid: Int32) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
            let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
        else { return 0 }
        return kilobytes * 1_024
    }

    /// Whether something accepts connections on the loopback at `port`.
    static func canConnect(port: Int) throws -> Bool {
        #if canImport(Glibc)
            let stream = Int32(SOCK_STREAM.rawValue)
        #else
            let stream = SOCK_STREAM
        #endif
        let socket = Foundation.socket(AF_INET, stream, 0)
        guard socket >= 0 else { return false }
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Foundation.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        return result == 0
    }
}
