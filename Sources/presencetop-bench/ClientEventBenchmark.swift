import ArgumentParser
import BenchWorkloads
import Foundation
import Logging
import PresenceLab
import RTDBClient

/// Local write → listener latency while connected, and the initial load of a large listen,
/// through the client engine against an in-process server.
struct ClientEventBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "client-events",
        abstract: "Connected setValue → listener latency on a 1,000-child node; initial load of a 10,000-child listen."
    )

    @Option(help: "Writes timed for the latency figures.")
    var writes = 5_000

    @Option(help: "Children of the node the latency is measured on.")
    var children = 1_000

    @Option(help: "Children in the initial-load measurement.")
    var loadChildren = 10_000

    @OptionGroup var options: BenchOptions

    func run() async throws {
        try await BenchReport.run("client-events", options: options) { report in
            let server = try await EmbeddedServer.start(dataDirectory: nil)
            let url = "http://127.0.0.1:\(server.port)?ns=bench"
            try await latency(url: url, report)
            try await initialLoad(url: url, report)
            await server.stop()
        }
    }

    /// The latency workload, connected (``LatencyBenchmark`` runs it offline).
    private func latency(url: String, _ report: BenchReport) async throws {
        let samples = LatencyWorkload.run(sets: writes, children: children, url: url).toEvent
        let p50 = BenchSupport.percentile(samples, 50)
        let p99 = BenchSupport.percentile(samples, 99)
        report.record("set_to_child_changed_p50_us", p50 * 1_000)
        report.record("set_to_child_changed_p99_us", p99 * 1_000)
        report.say(
            String(
                format: "setValue → child_changed on a %d-child node: p50 %.3f ms, p99 %.3f ms (%d writes)", children,
                p50, p99, samples.count))
    }

    private func initialLoad(url: String, _ report: BenchReport) async throws {
        let writer = Database(url: url)
        var big: [String: Any] = [:]
        for index in 0..<loadChildren { big["item\(index)"] = ["score": index, "name": "player \(index)"] }
        try await writer.reference(withPath: "load/items").setValue(big)
        let reader = Database(url: url)
        let start = DispatchTime.now().uptimeNanoseconds
        let (values, continuation) = AsyncStream.makeStream(of: UInt.self)
        reader.reference(withPath: "load/items").observe(.value) { continuation.yield($0.childrenCount) }
        var iterator = values.makeAsyncIterator()
        let count = await iterator.next() ?? 0
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000
        report.record("initial_load_ms", elapsed)
        report.say(
            String(format: "initial load of a %d-child listen to the first value event: %.1f ms", Int(count), elapsed))
        writer.close()
        reader.close()
    }
}
