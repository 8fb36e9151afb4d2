import ArgumentParser
import Foundation
import HummingbirdWSClient
import Logging
import Presence
import RTDBCore
import RTDBServer
import RTDBWire

/// Acknowledged durable writes per second through `RTDBServer`, over 1 and N pipelined
/// WebSocket connections, beside the raw SQLite group-commit rate of the same machine.
struct ServerWriteBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "server-writes",
        abstract: "Pipelined sets over WebSocket: acknowledged durable writes per second."
    )

    @Option(help: "Writes per run.")
    var writes = 100_000

    @Option(help: "Connections in the multi-connection run.")
    var connections = 8

    @Option(help: "Writes in flight per connection.")
    var window = 2_000

    func run() async throws {
        let directory = BenchSupport.scratchDirectory()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }

        let raw = try await rawSQLiteRate(directory: directory)
        print("raw SQLite group commit (batches of 1000 log rows, synchronous=FULL): \(Int(raw)) rows/s")

        let server = try await EmbeddedServer.start(dataDirectory: directory) { $0.checkpointInterval = 1_000_000 }
        let port = server.port
        let url = "ws://127.0.0.1:\(port)/.ws?v=5&ns=bench"

        for connectionCount in [1, connections] {
            let perConnection = writes / connectionCount
            let start = ContinuousClock.now
            try await withThrowingTaskGroup(of: Void.self) { group in
                for connection in 0..<connectionCount {
                    group.addTask {
                        try await pipelinedWrites(
                            url: url, prefix: "c\(connectionCount)_\(connection)", count: perConnection)
                    }
                }
                try await group.waitForAll()
            }
            let seconds = (ContinuousClock.now - start) / .seconds(1)
            let rate = Double(perConnection * connectionCount) / seconds
            print(
                "\(connectionCount) connection(s): \(perConnection * connectionCount) acked durable writes in "
                    + String(format: "%.2f s = %.0f writes/s (%.2f× the raw SQLite rate)", seconds, rate, rate / raw))
        }
        await server.stop()
    }

    /// Sends `count` sets keeping `window` in flight; returns when all are acknowledged.
    private func pipelinedWrites(url: String, prefix: String, count: Int) async throws {
        let window = window
        try await WebSocketClient.connect(url: url, logger: Logger(label: "bench.client")) { inbound, outbound, _ in
            var sent = 0
            var acked = 0
            var messages = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
            _ = try await messages.next()  // hello
            func sendMore() async throws {
                while sent < count && sent - acked < window {
                    sent += 1
                    let request = ClientRequest.put(
                        path: Path("\(prefix)/k\(sent % 5_000)"), data: .int(Int64(sent)), hash: nil)
                    try await outbound.write(.text(WireMessage.request(sent, request).text))
                }
            }
            try await sendMore()
            while acked < count, let message = try await messages.next() {
                // Answers come in order: the next one is the acknowledgement of request acked + 1.
                guard case .text(let text) = message, text == WireMessage.acknowledgementText(number: acked + 1)
                else { continue }
                acked += 1
                if sent - acked < window / 2 { try await sendMore() }
            }
            try await outbound.close(.normalClosure, reason: nil)
        }
    }

    private func rawSQLiteRate(directory: URL) async throws -> Double {
        let store = try SQLiteStore(path: directory.appendingPathComponent("raw.sqlite").path)
        let batches = max(1, writes / 1_000)
        let start = ContinuousClock.now
        var sequence: UInt64 = 0
        for _ in 0..<batches {
            var records: [LogRecord] = []
            records.reserveCapacity(1_000)
            for _ in 0..<1_000 {
                sequence += 1
                records.append(
                    LogRecord(
                        sequence: sequence, path: Path("raw/k\(sequence % 5_000)"), kind: .set, data: "\(sequence)"))
            }
            try await store.append(records, checkpoint: nil)
        }
        let seconds = (ContinuousClock.now - start) / .seconds(1)
        try await store.close()
        return Double(batches * 1_000) / seconds
    }
}
