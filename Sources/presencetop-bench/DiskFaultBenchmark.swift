import ArgumentParser
import DiskFaults
import Foundation
import HummingbirdWSClient
import Logging
import PresenceLab
import RTDBCore
import RTDBWire
import Synchronization

/// The server on a slow disk and on a full one (a fault-injecting SQLite VFS on real files): how
/// soon a write is answered, and how reads of the same namespace fare meanwhile.
struct DiskFaultBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "disk",
        abstract: "A slow and a full disk under the server: write answers and reads meanwhile."
    )

    @Option(help: "What each sync takes more, in milliseconds, comma-separated (a slow disk).")
    var syncDelays = "0,10,100,1000"

    @Option(help: "Writes, one after another, per disk.")
    var writes = 12

    @Option(help: "Pipelined writes per slow disk (group commit: many writes share a sync).")
    var pipelined = 5_000

    @OptionGroup var options: BenchOptions

    func run() async throws {
        let delays = syncDelays.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard !delays.isEmpty, delays.allSatisfy({ (0...60_000).contains($0) }) else {
            throw ValidationError("--sync-delays takes milliseconds from 0 to 60000, comma-separated: \(syncDelays)")
        }
        try await BenchReport.run("disk", options: options) { report in
            let directory = try BenchSupport.makeScratchDirectory(for: report, "disk")
            for delay in delays { try await slowDisk(delay, directory: directory, report) }
            try await fullDisk(directory: directory, report)
        }
    }

    /// Each sync takes `milliseconds` more: writes one after another, reads beside them, and a
    /// pipelined run whose writes share syncs.
    private func slowDisk(_ milliseconds: Int, directory: URL, _ report: BenchReport) async throws {
        let (disk, server, url) = try await serverOnFaultyFolder(
            directory.appendingPathComponent("slow-\(milliseconds)"))
        defer { disk.delaySyncs(by: nil) }
        disk.delaySyncs(by: .milliseconds(milliseconds))
        let (answers, reads) = try await writesBesideReads(url: url)
        let writes = answers.map(\.ms)
        let key = "sync_plus_\(milliseconds)ms"
        record(report, key, writes: writes, reads: reads)
        let start = ContinuousClock.now
        try await WirePipeline.run(url: url, count: pipelined, window: 1_000) { number in
            .put(path: Path("pipelined/k\(number % 500)"), data: .int(Int64(number)), hash: nil)
        }
        let rate = Double(pipelined) / ((ContinuousClock.now - start) / .seconds(1))
        report.record("\(key)_pipelined_writes_per_second", rate)
        report.say(
            String(
                format:
                    "sync +%d ms: write answered p50 %.1f ms, p99 %.1f ms; reads beside p50 %.2f ms, p99 %.2f ms (%d); pipelined %.0f writes/s",
                milliseconds, BenchSupport.percentile(writes, 50), BenchSupport.percentile(writes, 99),
                BenchSupport.percentile(reads, 50), BenchSupport.percentile(reads, 99), reads.count, rate))
        await server.stop()
    }

    /// A server whose data folder is behind the fault VFS, with its namespace's file made by one
    /// write before any fault.
    ///
    /// Its first commit syncs several times; after it, every write is one commit, and what it
    /// stores stays readable on a full disk.
    private func serverOnFaultyFolder(_ data: URL) async throws -> (FaultyFolder, EmbeddedServer, String) {
        let disk = try FaultyFolder(prefix: data.path + "/")
        let server = try await EmbeddedServer.start(dataDirectory: data) { $0.limits = .unlimited }
        let url = "ws://127.0.0.1:\(server.port)/.ws?v=5&ns=bench"
        _ = try await writesBesideReads(url: url, count: 1)
        return (disk, server, url)
    }

    /// A full disk: every write refused (how soon), reads beside them, then how soon a write is
    /// taken once there is room.
    private func fullDisk(directory: URL, _ report: BenchReport) async throws {
        let (disk, server, url) = try await serverOnFaultyFolder(directory.appendingPathComponent("full"))
        defer { disk.fill(after: nil) }
        disk.fill(after: 0)
        let (answers, reads) = try await writesBesideReads(url: url)
        let writes = answers.map(\.ms)
        let refused = answers.filter { $0.status == .unavailable }.count
        record(report, "full_disk", writes: writes, reads: reads)
        report.record("full_disk_writes_refused", refused)
        disk.fill(after: nil)
        let room = ContinuousClock.now
        var taken = false
        while !taken && ContinuousClock.now - room < .seconds(30) {
            taken = try await writesBesideReads(url: url, count: 1).writes.first?.status == .ok
        }
        let recovery = (ContinuousClock.now - room) / .milliseconds(1)
        report.record("full_disk_first_write_after_room_ms", recovery)
        report.say(
            String(
                format:
                    "full disk: %d of %d writes refused, answered p50 %.1f ms, p99 %.1f ms; reads beside p50 %.2f ms, p99 %.2f ms (%d); room again: a write taken after %.0f ms",
                refused, writes.count, BenchSupport.percentile(writes, 50),
                BenchSupport.percentile(writes, 99), BenchSupport.percentile(reads, 50),
                BenchSupport.percentile(reads, 99), reads.count, recovery))
        await server.stop()
    }

    private func record(_ report: BenchReport, _ key: String, writes: [Double], reads: [Double]) {
        report.record("\(key)_write_answer_p50_ms", BenchSupport.percentile(writes, 50))
        report.record("\(key)_write_answer_p99_ms", BenchSupport.percentile(writes, 99))
        report.record("\(key)_read_p50_ms", BenchSupport.percentile(reads, 50))
        report.record("\(key)_read_p99_ms", BenchSupport.percentile(reads, 99))
        report.record("\(key)_reads", reads.count)
    }

    /// `count` sets, one after another, each answered before the next, with a reader getting
    /// another node on its own connection meanwhile: each answer's time (milliseconds) and status.
    private func writesBesideReads(url: String, count: Int? = nil) async throws -> (
        writes: [(ms: Double, status: WireStatus)], reads: [Double]
    ) {
        let writing = StopFlag()
        // Beside the writes: a read of what they touch waits for their commit (`listen` times that).
        async let reads = Self.timedRequests(url: url, until: writing) { _ in .get(path: Path("b"), query: .default) }
        let writes = try await Self.timedRequests(url: url, count: count ?? self.writes) {
            .put(path: Path("a"), data: .int(Int64($0)), hash: nil)
        }
        writing.stop()
        return (writes, try await reads.map(\.ms))
    }

    /// Sends requests one at a time over one WebSocket, until `count` are answered or `until`
    /// stops: each one's answer time in milliseconds, and its status.
    private static func timedRequests(
        url: String, count: Int = .max, until flag: StopFlag? = nil,
        request: @escaping @Sendable (Int) -> ClientRequest
    ) async throws -> [(ms: Double, status: WireStatus)] {
        let log = AnswerLog()
        try await WebSocketClient.connect(url: url, logger: Logger(label: "bench.disk")) { inbound, outbound, _ in
            var messages = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
            _ = try await messages.next()  // hello
            var number = 0
            while number < count && !(flag?.isStopped ?? false) {
                number += 1
                let sent = ContinuousClock.now
                try await outbound.write(.text(WireMessage.request(number, request(number)).text))
                while let message = try await messages.next() {
                    guard case .text(let text) = message,
                        case .response(number, let status, _) = try? WireMessage(text: text)
                    else { continue }
                    log.append((ContinuousClock.now - sent) / .milliseconds(1), status)
                    break
                }
            }
            try await outbound.close(.normalClosure, reason: nil)
        }
        return log.answers
    }
}

/// Tells a loop of requests to stop (the writer is done: the reader beside it stops).
private final class StopFlag: Sendable {
    private let stopped = Atomic<Bool>(false)

    /// Whether ``stop()`` was called.
    var isStopped: Bool { stopped.load(ordering: .relaxed) }

    /// Stops the loop after its current request.
    func stop() { stopped.store(true, ordering: .relaxed) }
}

/// The answers one loop of requests has had: each one's time in milliseconds, and its status.
private final class AnswerLog: Sendable {
    private let entries = Mutex<[(ms: Double, status: WireStatus)]>([])

    /// Every answer so far, in order.
    var answers: [(ms: Double, status: WireStatus)] { entries.withLock { $0 } }

    /// Notes an answer.
    func append(_ milliseconds: Double, _ status: WireStatus) { entries.withLock { $0.append((milliseconds, status)) } }
}
