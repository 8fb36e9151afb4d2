import ArgumentParser
import Foundation
import HummingbirdWSClient
import Logging
import Presence
import PresenceLab
import RTDBCore
import RTDBServer
import RTDBWire
import Synchronization

/// A control client's round trip while other clients flood the same namespace, with the server's
/// connection limits and without them: what the limits buy the well-behaved.
struct FloodBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "flood",
        abstract: "A control client's round trip while other connections flood the same namespace."
    )

    @Option(help: "Flooding connections.")
    var flooders = 2

    @Option(help: "Seconds each phase measures.")
    var seconds = 5.0

    @Option(help: "The control round trip's stated bound at the 99th percentile under flood, in ms.")
    var bound = 50.0

    @OptionGroup var options: BenchOptions

    func run() async throws {
        try await BenchReport.run("flood", options: options) { try await measure($0) }
    }

    private func measure(_ report: BenchReport) async throws {
        let directory = try BenchSupport.makeScratchDirectory(for: report, "flood")
        var results: [(String, [Double])] = []
        for (name, limits) in [("with limits", ConnectionLimits()), ("without limits", ConnectionLimits.unlimited)] {
            let server = try await EmbeddedServer.start(
                dataDirectory: directory.appendingPathComponent(name.replacing(" ", with: "-"))
            ) { $0.limits = limits }
            let url = "ws://127.0.0.1:\(server.port)/.ws?v=5&ns=flood"
            if results.isEmpty { results.append(("quiet", try await roundTrips(url: url, for: seconds))) }
            let flooded = try await withThrowingTaskGroup(of: [Double]?.self) { group in
                // A flooder ends when the measurement does (cancelled), which is not a failure.
                for index in 0..<flooders { group.addTask { try? await flood(url: url, index: index) } }
                group.addTask { try await roundTrips(url: url, for: seconds, after: .milliseconds(500)) }
                var samples: [Double] = []
                while let result = try await group.next() {
                    if let result {
                        samples = result
                        group.cancelAll()
                    }
                }
                return samples
            }
            results.append(("\(flooders) flooding, \(name)", flooded))
            await server.stop()
        }
        let limits = ConnectionLimits()
        report.say(
            "limits: \(limits.outstandingRequests) outstanding requests, \(limits.messagesPerSecond) messages/s per connection"
        )
        for (name, samples) in results {
            let p50 = BenchSupport.percentile(samples, 50)
            let p99 = BenchSupport.percentile(samples, 99)
            let key = name.replacing(",", with: "").replacing(" ", with: "_")
            report.record("control_round_trip_\(key)_p50_us", p50 * 1_000)
            report.record("control_round_trip_\(key)_p99_us", p99 * 1_000)
            report.say(
                String(
                    format: "control round trip, %@: %d trips, p50 %.2f ms, p99 %.2f ms, max %.2f ms", name,
                    samples.count, p50, p99, samples.max() ?? 0))
        }
        if let limited = results.first(where: { $0.0.hasSuffix("with limits") }) {
            let p99 = BenchSupport.percentile(limited.1, 99)
            report.record("bound_p99_us", bound * 1_000)
            report.record("bound", p99 <= bound ? "held" : "not held")
            report.say(
                String(
                    format: "stated bound: p99 under flood with limits ≤ %.0f ms: %@ (%.2f ms)", bound,
                    p99 <= bound ? "held" : "NOT held", p99))
        }
    }

    /// Sequential sets, each waiting for its acknowledgement, for `duration`: the round trips in ms.
    private func roundTrips(url: String, for duration: Double, after delay: Duration = .zero) async throws -> [Double] {
        try await Task.sleep(for: delay)
        let samples = Mutex<[Double]>([])
        try await WebSocketClient.connect(url: url, logger: Logger(label: "bench.control")) { inbound, outbound, _ in
            var messages = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
            _ = try await messages.next()  // hello
            let end = ContinuousClock.now + .milliseconds(Int64(duration * 1000))
            var number = 0
            while ContinuousClock.now < end {
                number += 1
                let start = ContinuousClock.now
                let request = ClientRequest.put(path: Path("control/last"), data: .int(Int64(number)), hash: nil)
                try await outbound.write(.text(WireMessage.request(number, request).text))
                let ack = WireMessage.acknowledgementText(number: number)
                while let message = try await messages.next() {
                    if case .text(let text) = message, text == ack { break }
                }
                let elapsed = (ContinuousClock.now - start) / .milliseconds(1)
                samples.withLock { $0.append(elapsed) }
            }
            try await outbound.close(.normalClosure, reason: nil)
        }
        return samples.withLock { $0 }
    }

    /// Sends sets as fast as the socket takes them, never waiting for an answer, until cancelled.
    private func flood(url: String, index: Int) async throws -> [Double]? {
        try await WebSocketClient.connect(url: url, logger: Logger(label: "bench.flood")) { inbound, outbound, _ in
            try await withThrowingTaskGroup(of: Void.self) { group in
                // Answers are read (and dropped) so that the server is never held up writing them.
                group.addTask { for try await _ in inbound.messages(maxSize: 1 << 20) {} }
                group.addTask {
                    var number = 0
                    while !Task.isCancelled {
                        number += 1
                        let request = ClientRequest.put(
                            path: Path("flood/f\(index)/k\(number % 1_000)"), data: .int(Int64(number)), hash: nil)
                        try await outbound.write(.text(WireMessage.request(number, request).text))
                    }
                }
                try await group.next()
                group.cancelAll()
            }
        }
        return nil
    }
}
