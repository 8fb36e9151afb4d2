import ArgumentParser
import Foundation
import Logging
import PresenceLab
import RTDBClient

/// What the benchmarks share: percentiles, scratch folders, limits, memory, a persistent database.
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

    /// The `presencetop` executable beside this one: the benchmarks start its server and its
    /// dashboard (build both: `swift build -c release`).
    static func presencetop() throws -> URL {
        let url = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("presencetop")
        guard FileManager.default.isExecutableFile(atPath: url.path) else {
            throw ValidationError(
                "no presencetop beside this benchmark at \(url.path): build both with swift build -c release")
        }
        return url
    }

    /// Raises this process's open-file limit to its hard limit (children inherit it); the limit now.
    static func raiseDescriptorLimit() -> Int {
        DescriptorHeadroom.raiseToHardLimit()
    }

    /// A process's resident memory in bytes (VmRSS in /proc), 0 when it cannot be read.
    static func residentBytes(of pid: Int32) -> Int { statusKilobytes("VmRSS:", of: "\(pid)") * 1_024 }

    /// Hands the heap's free pages back to the system (glibc's `malloc_trim`), so that memory a
    /// benchmark's set-up used and let go (a seed of a million users, a root read over REST) is
    /// not counted in the baseline, and reused unseen by what is measured after it.
    static func returnFreedMemory() { HeapPolicy.returnFreedMemory() }

    /// A field of /proc/PID/status in kilobytes (`VmRSS:`, `VmHWM:`), 0 when it cannot be read.
    private static func statusKilobytes(_ field: String, of pid: String) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field) }),
            let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
        else { return 0 }
        return kilobytes
    }

    /// The bytes this process has read through system calls, sockets included (rchar in
    /// /proc/self/io), 0 when it cannot be read.
    static func bytesRead() -> Int {
        guard let io = try? String(contentsOfFile: "/proc/self/io", encoding: .utf8),
            let line = io.split(separator: "\n").first(where: { $0.hasPrefix("rchar:") }),
            let bytes = line.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
        else { return 0 }
        return bytes
    }

    /// This process's peak resident memory in bytes (VmHWM in /proc), 0 when it cannot be read.
    static func peakResidentBytes() -> Int { statusKilobytes("VmHWM:", of: "self") * 1_024 }

    /// Starts this process's peak resident memory again from what is resident now (Linux's
    /// `clear_refs`; false when it cannot).
    static func resetPeakResident() -> Bool {
        (try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)) != nil
    }

    /// The CPU time a process's threads have run; nil when it cannot be read.
    ///
    /// The sum of /proc/PID/task/*/schedstat, in nanoseconds; threads that ended are not counted.
    static func cpuTime(of pid: Int32) -> Duration? {
        let tasks = "/proc/\(pid)/task"
        guard let threads = try? FileManager.default.contentsOfDirectory(atPath: tasks) else { return nil }
        var nanoseconds: Int64 = 0
        for thread in threads {
            guard let stat = try? String(contentsOfFile: "\(tasks)/\(thread)/schedstat", encoding: .utf8),
                let ran = stat.split(separator: " ").first.flatMap({ Int64($0) })
            else { continue }
            nanoseconds += ran
        }
        return .nanoseconds(nanoseconds)
    }

    /// The CPU time a process has spent in the kernel on its behalf (system time, from
    /// `/proc/PID/stat`, in clock ticks: 10 ms steps), or nil if it cannot be read.
    static func kernelTime(of pid: Int32) -> Duration? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let end = stat.lastIndex(of: ")")
        else { return nil }
        // After the command's closing parenthesis: state, ppid, … utime is the 12th, stime the 13th.
        let fields = stat[stat.index(after: end)...].split(separator: " ")
        guard fields.count > 12, let ticks = Int64(fields[12]) else { return nil }
        let perSecond = Int64(sysconf(Int32(_SC_CLK_TCK)))
        guard perSecond > 0 else { return nil }
        return .milliseconds(ticks * 1000 / perSecond)
    }

    /// A database with persistence in `directory`; `phases` logs the engine's start-up phases.
    static func persistentDatabase(url: String, directory: URL, phases: Bool) -> Database {
        var logger = Logger(label: "bench") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = phases ? .debug : .error
        let database = Database(url: url, logger: logger)
        database.persistenceDirectory = directory
        database.isPersistenceEnabled = true
        return database
    }

    /// Sends SIGTERM to every other process whose command line or environment mentions `marker`
    /// (a tmux server started with `-L marker`, the program in it): what a run started, found
    /// even when it was interrupted before it learned their pids.
    static func terminateProcesses(mentioning marker: String) {
        for pid in processes(mentioning: marker).keys { kill(pid, SIGTERM) }
    }

    /// The other processes whose command line or environment mentions `marker`, each with its
    /// command line (arguments joined by spaces).
    static func processes(mentioning marker: String) -> [pid_t: String] {
        let own = getpid()
        var found: [pid_t: String] = [:]
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        for entry in entries {
            guard let pid = Int32(entry), pid != own else { continue }
            let contents = ["cmdline", "environ"].map { file in
                FileManager.default.contents(atPath: "/proc/\(pid)/\(file)").map { String(decoding: $0, as: UTF8.self) }
                    ?? ""
            }
            if contents.contains(where: { $0.contains(marker) }) {
                found[pid] = contents[0].split(separator: "\0").joined(separator: " ")
            }
        }
        return found
    }
}
