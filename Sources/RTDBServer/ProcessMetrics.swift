import Foundation
import Prometheus
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The process's own figures under Prometheus' standard names, read from `/proc` at each scrape
/// (swift-prometheus has no process collector): resident memory, CPU seconds, open descriptors,
/// start time.
public final class ProcessMetrics: Sendable {
    let residentBytes: Gauge
    let cpuSeconds: Counter
    /// The CPU seconds the counter has been brought to (it only goes up by what /proc adds).
    private let cpuCounted = Mutex<Double>(0)
    let openDescriptors: Gauge
    let startTime: Gauge

    /// The process's metrics, in `registry`.
    public init(_ registry: PrometheusCollectorRegistry) {
        residentBytes = registry.gauge(
            name: "process_resident_memory_bytes", help: "Resident memory size in bytes.")
        cpuSeconds = registry.counter(
            name: "process_cpu_seconds_total", help: "Total user and system CPU time spent in seconds.")
        openDescriptors = registry.gauge(name: "process_open_fds", help: "Number of open file descriptors.")
        startTime = registry.gauge(
            name: "process_start_time_seconds", help: "Start time of the process since unix epoch in seconds.")
    }

    /// Reads `/proc/self` now; a figure that cannot be read keeps its last value.
    public func update() {
        if let stat = Self.stat() {
            let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
            let page = Double(sysconf(Int32(_SC_PAGESIZE)))
            if ticks > 0 {
                let total = (stat.userTicks + stat.systemTicks) / ticks
                cpuCounted.withLock { counted in
                    if total > counted { cpuSeconds.increment(by: total - counted) }
                    counted = max(counted, total)
                }
                if let boot = Self.bootTime() { startTime.set(boot + stat.startTicks / ticks) }
            }
            residentBytes.set(stat.residentPages * page)
        }
        if let descriptors = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") {
            // The listing's own descriptor is among them.
            openDescriptors.set(Double(max(0, descriptors.count - 1)))
        }
    }

    /// The fields of `/proc/self/stat` it reads.
    static func stat() -> (userTicks: Double, systemTicks: Double, startTicks: Double, residentPages: Double)? {
        guard let text = try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8),
            let close = text.lastIndex(of: ")")
        else { return nil }
        // After `pid (comm)`: state is field 3; utime 14, stime 15, starttime 22, rss 24.
        let fields = text[close...].split(separator: " ").dropFirst()
        func field(_ number: Int) -> Double? {
            let index = fields.index(fields.startIndex, offsetBy: number - 3, limitedBy: fields.endIndex)
            guard let index, index < fields.endIndex else { return nil }
            return Double(fields[index])
        }
        guard let user = field(14), let system = field(15), let start = field(22), let rss = field(24) else {
            return nil
        }
        return (user, system, start, rss)
    }

    /// The machine's boot time (`btime` in `/proc/stat`), in seconds since the epoch.
    static func bootTime() -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/stat", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("btime ") {
            return Double(line.dropFirst(6).trimmingCharacters(in: .whitespaces))
        }
        return nil
    }
}
