import ArgumentParser
import Foundation
import HummingbirdWSClient
import Logging
import PresenceLab
import RTDBCore
import RTDBWire
import Synchronization

/// A listen's time to its first data while other clients write without pause, on the durable
/// server and in memory, from the same run: a listen at the written location waits for the
/// writes applied before it to be stored (a group commit); one beside them is answered at once.
struct ListenBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "listen",
        abstract: "A listen's time to its first data under sustained writes, durable and in memory."
    )

    @Option(help: "Listens timed per location and server.")
    var listens = 300

    @Option(help: "Children the writers keep overwriting under the written location.")
    var children = 100

    @Option(help: "Writer connections, each keeping a window of writes in flight.")
    var writers = 2

    @OptionGroup var options: BenchOptions

    func run() async throws {
        guard (1...100_000).contains(listens), (1...100_000).contains(children), (1...16).contains(writers) else {
            throw ValidationError("--listens and --children take 1 to 100000, --writers 1 to 16")
        }
        try await BenchReport.run("listen", options: options) { report in
            let directory = try BenchSupport.makeScratchDirectory(for: report, "listen")
            for durable in [true, false] {
                try await measure(durable: durable, directory: directory, report)
            }
        }
    }

    /// One server: writers start, then listens at the written location and beside it, one at a
    /// time, each removed once answered.
    private func measure(durable: Bool, directory: URL, _ report: BenchReport) async throws {
        let name = durable ? "durable" : "memory"
        let server = try await EmbeddedServer.start(
            dataDirectory: durable ? directory.appendingPathComponent("data") : nil
        ) { $0.limits = .unlimited }
        let url = "ws://127.0.0.1:\(server.port)/.ws?v=5&ns=bench"
        let load = WriteLoad()
        let children = children
        let writing = (0..<writers).map { writer in
            Task {
                while !load.stopped.load(ordering: .relaxed) {
                    try await WirePipeline.run(url: url, count: 2_000, window: 200) { number in
                        .put(
                            path: Path("load/k\((number * 7 + writer) % children)"), data: .int(Int64(number)),
                            hash: nil)
                    }
                    load.written.add(2_000, ordering: .relaxed)
                }
            }
        }
        // The writers are under way before the first listen.
        try await WirePipeline.run(url: url, count: 1, window: 1) { _ in
            .put(path: Path("beside/x"), data: 1, hash: nil)
        }
        let start = ContinuousClock.now
        let writtenBefore = load.written.load(ordering: .relaxed)
        let hot = try await Self.timeListens(url: url, at: Path("load"), count: listens)
        let beside = try await Self.timeListens(url: url, at: Path("beside"), count: listens)
        let seconds = (ContinuousClock.now - start) / .seconds(1)
        let rate = Double(load.written.load(ordering: .relaxed) - writtenBefore) / seconds
        load.stopped.store(true, ordering: .relaxed)
        for task in writing { try await task.value }
        await server.stop()

        for (place, times) in [("written", hot), ("beside", beside)] {
            report.record("\(name)_listen_\(place)_first_data_p50_ms", BenchSupport.percentile(times, 50))
            report.record("\(name)_listen_\(place)_first_data_p99_ms", BenchSupport.percentile(times, 99))
        }
        report.record("\(name)_writes_per_second_meanwhile", rate)
        report.say(
            String(
                format:
                    "%@: a listen's first data at the written location p50 %.2f ms, p99 %.2f ms; beside it p50 %.2f ms, p99 %.2f ms (%d each); %.0f writes/s meanwhile",
                name, BenchSupport.percentile(hot, 50), BenchSupport.percentile(hot, 99),
                BenchSupport.percentile(beside, 50), BenchSupport.percentile(beside, 99), listens, rate))
    }

    /// Listens at `path` `count` times over one WebSocket, one at a time: each one's time from
    /// its sending to its first data, in milliseconds; each is removed once answered.
    private static func timeListens(url: String, at path: Path, count: Int) async throws -> [Double] {
        let times = Mutex<[Double]>([])
        try await WebSocketClient.connect(url: url, logger: Logger(label: "bench.listen")) { inbound, outbound, _ in
            var messages = inbound.messages(maxSize: 1 << 24).makeAsyncIterator()
            _ = try await messages.next()  // hello
            var number = 0
            for _ in 0..<count {
                number += 1
                let sent = ContinuousClock.now
                let listen = ClientRequest.listen(path: path, query: .default, tag: nil, hash: "")
                try await outbound.write(.text(WireMessage.request(number, listen).text))
                var heard = false
                while let message = try await messages.next() {
                    guard case .text(let text) = message, let wire = try? WireMessage(text: text) else { continue }
                    if !heard, case .push(.data(path, _, _)) = wire {
                        heard = true
                        let elapsed = (ContinuousClock.now - sent) / .milliseconds(1)
                        times.withLock { $0.append(elapsed) }
                    }
                    if case .response(number, _, _) = wire { break }
                }
                number += 1
                let unlisten = ClientRequest.unlisten(path: path, query: .default, tag: nil)
                try await outbound.write(.text(WireMessage.request(number, unlisten).text))
                while let message = try await messages.next() {
                    guard case .text(let text) = message, case .response(number, _, _) = try? WireMessage(text: text)
                    else { continue }
                    break
                }
            }
            try await outbound.close(.normalClosure, reason: nil)
        }
        return times.withLock { $0 }
    }
}

/// The writers' shared state: whether to stop, and how many writes were answered.
private final class WriteLoad: Sendable {
    let stopped = Atomic<Bool>(false)
    let written = Atomic<Int>(0)
}
