import ArgumentParser
import ChildProcesses
import Foundation
import PresenceLab
import RTDBClient

/// Client persistence: local writes made durable per second, and the cold start of a full cache
/// with a long write queue, beside a raw read of the same rows with the `sqlite3` tool.
struct ColdStartBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "coldstart",
        abstract: "Local writes persisted per second; cold start of a 10 MB cache plus 10,000 queued writes."
    )

    @Option(help: "Writes timed for the persisted-writes rate.")
    var writes = 20_000

    @Option(help: "Children of the cached location (each about 1 KB).")
    var cacheChildren = 10_000

    @Option(help: "Writes queued offline before the cold start.")
    var queuedWrites = 10_000

    @Option(help: "Cold starts measured (the median is reported).")
    var rounds = 5

    @Option(
        help: ArgumentHelp(
            "Keep the prepared files here and reuse them on the next run (only the cold start is then measured).",
            valueName: "directory"))
    var reuse: String?

    @OptionGroup var options: BenchOptions

    func run() async throws {
        try await BenchReport.run("coldstart", options: options) { try await measure($0) }
    }

    private func measure(_ report: BenchReport) async throws {
        let server = try await EmbeddedServer.start(dataDirectory: nil)
        let directory = try reuse.map { URL(fileURLWithPath: $0) } ?? BenchSupport.makeScratchDirectory(for: report)
        let cold = directory.appendingPathComponent("cold")
        // The URL names the cache file: a reused directory keeps the one it was prepared with.
        let urlFile = directory.appendingPathComponent("url")
        var url = "http://127.0.0.1:\(server.port)?ns=bench"
        if reuse != nil, let saved = try? String(contentsOf: urlFile, encoding: .utf8) {
            url = saved
        } else {
            try persistedWrites(url: url, directory: directory.appendingPathComponent("rate"), report)
            try await prepareColdStart(url: url, directory: cold, report)
            if reuse != nil { try url.write(to: urlFile, atomically: true, encoding: .utf8) }
        }
        await server.stop()
        try await coldStart(url: url, directory: cold, report)
    }

    @Flag(help: "Print the start-up phases (file, queue, replay, cache read).")
    var phases = false

    private func open(_ url: String, _ directory: URL) -> Database {
        BenchSupport.persistentDatabase(url: url, directory: directory, phases: phases)
    }

    /// Offline writes, each on disk when `setValue` returns.
    private func persistedWrites(url: String, directory: URL, _ report: BenchReport) throws {
        let database = open(url, directory)
        database.goOffline()
        let ref = database.reference(withPath: "rate")
        let start = DispatchTime.now().uptimeNanoseconds
        for index in 0..<writes { ref.child("w\(index)").setValue(index, andPriority: nil) }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        report.record("persisted_local_writes_per_second", Double(writes) / seconds)
        report.say(
            String(
                format: "local writes persisted: %.0f writes/s (%d writes, each on disk when setValue returns)",
                Double(writes) / seconds, writes))
        database.close()
    }

    /// Fills the cache with about 10 MB under `cold/items` and queues writes offline.
    private func prepareColdStart(url: String, directory: URL, _ bench: BenchReport) async throws {
        let database = open(url, directory)
        let filler = String(repeating: "x", count: 980)
        var items: [String: Any] = [:]
        for index in 0..<cacheChildren { items["item\(index)"] = ["score": index, "text": filler] }
        try await database.reference(withPath: "cold/items").setValue(items)
        let (loaded, continuation) = AsyncStream.makeStream(of: UInt.self)
        database.reference(withPath: "cold/items").observe(.value) { continuation.yield($0.childrenCount) }
        for await count in loaded where count == UInt(cacheChildren) { break }
        database.goOffline()
        for index in 0..<queuedWrites {
            database.reference(withPath: "cold/queue/q\(index)").setValue(["n": index], andPriority: nil)
        }
        let report = database.cacheReport()
        bench.say(
            "cache prepared: \((report?.totalBytes ?? 0) / 1024) KiB cached, \(database.pendingWrites.count) writes queued"
        )
        database.close()
    }

    /// Cold starts in turn: the listener added at once, open or not when the app last stopped
    /// (its cache is read beside the queue's restore either way), and added once the start is
    /// over (timed from the call; the cache is then read on the way).
    private func coldStart(url: String, directory: URL, _ report: BenchReport) async throws {
        guard
            let file = try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
                .first(where: { $0.pathExtension == "sqlite" })
        else { throw ValidationError("no cache file was written") }
        var reopened: [Double] = []
        var added: [Double] = []
        var late: [Double] = []
        var raw: [Double] = []
        // The preparation stopped with the listener open: the first start reopens it.
        for round in 0..<(3 * rounds) {
            var start = DispatchTime.now().uptimeNanoseconds
            let database = open(url, directory)
            if round % 3 == 2 {
                _ = database.pendingWrites  // returns once the start is over
                start = DispatchTime.now().uptimeNanoseconds
            }
            let (values, continuation) = AsyncStream.makeStream(of: UInt.self)
            let items = database.reference(withPath: "cold/items")
            let handle = items.observe(.value) { continuation.yield($0.childrenCount) }
            // A start that never delivers fails the run instead of hanging it.
            let watchdog = Task {
                try await Task.sleep(for: .seconds(30))
                continuation.finish()
            }
            var iterator = values.makeAsyncIterator()
            let count = await iterator.next() ?? 0
            watchdog.cancel()
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
            guard count == UInt(cacheChildren) else { throw ValidationError("the cold start saw \(count) children") }
            switch round % 3 {
            case 0: reopened.append(elapsed)
            case 1: added.append(elapsed)
            default: late.append(elapsed)
            }
            // Rounds 0 and 1 stop without the listener, so the next start does not reopen it.
            if round % 3 != 2 { items.removeObserver(withHandle: handle) }
            database.close()
            if round % 3 == 1 { raw.append(try await rawRead(file)) }
        }
        func median(_ values: [Double]) -> Double { BenchSupport.percentile(values, 50) }
        let rawMedian = median(raw)
        report.record("cold_start_ms", median(added))
        report.record("raw_sqlite_read_ms", rawMedian)
        report.record("cold_start_over_raw_sqlite_ratio", median(added) / rawMedian)
        report.record("cold_start_reopened_listener_ms", median(reopened))
        report.say(
            String(
                format:
                    "cold start (10 MB cache + %d queued writes) to the first value event: median %.1f ms (best %.1f); raw sqlite3 read of the same rows: median %.1f ms; ratio %.2f",
                queuedWrites, median(added), added.min() ?? .nan, rawMedian, median(added) / rawMedian))
        report.say(
            String(
                format:
                    "  the same listener open when the app last stopped: median %.1f ms (ratio %.2f); added once the start is over: first value %.1f ms after the call",
                median(reopened), median(reopened) / rawMedian, median(late)))
    }

    /// Reads every cache and queue row with the `sqlite3` tool, as a floor for the cold start.
    private func rawRead(_ file: URL) async throws -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        let process = try await ChildProcess(
            URL(fileURLWithPath: "/usr/bin/env"),
            ["sqlite3", file.path, "SELECT path, value FROM server_cache; SELECT id, path, data FROM writes;"])
        guard await process.exitStatus(within: .seconds(600)) == 0 else {
            throw ValidationError("sqlite3 failed (is it installed?): \(process.standardError)")
        }
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
    }
}
