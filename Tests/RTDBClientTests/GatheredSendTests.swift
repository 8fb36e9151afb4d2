import Foundation
import RTDBCore
import RTDBTestSupport
import Synchronization
import Testing

@testable import RTDBClient

/// A queue going out (restored after a restart, or held while offline) reaches the transport a
/// batch of frames at a time, in order, against a real server and a real SQLite file.
@Suite struct GatheredSendTests {
    /// A WebSocket transport that notes each hand-over of frames: how many, and which.
    final class BatchRecordingTransport: Transport {
        private let inner = WebSocketTransport()
        let batches = Mutex<[[String]]>([])

        func connect(to url: String, onEvent: @escaping @Sendable (TransportEvent) -> Void) -> any TransportConnection {
            Connection(inner: inner.connect(to: url, onEvent: onEvent), transport: self)
        }

        /// The hand-overs that carried writes (`p` requests) under `prefix`, as the paths they wrote.
        func writeBatches(under prefix: String) -> [[String]] {
            batches.withLock { $0 }.map { $0.compactMap(Self.putPath).filter { $0.hasPrefix(prefix) } }
                .filter { !$0.isEmpty }
        }

        private static func putPath(_ frame: String) -> String? {
            guard case .object(let message)? = try? JSONParser.parse(frame),
                case .object(let body)? = message.first(where: { $0.key == "d" })?.value,
                case .string("p")? = body.first(where: { $0.key == "a" })?.value,
                case .object(let request)? = body.first(where: { $0.key == "b" })?.value,
                case .string(let path)? = request.first(where: { $0.key == "p" })?.value
            else { return nil }
            return path
        }

        private struct Connection: TransportConnection {
            let inner: any TransportConnection
            let transport: BatchRecordingTransport

            func send(_ frame: String) { send([frame]) }

            func send(_ frames: [String]) {
                transport.batches.withLock { $0.append(frames) }
                inner.send(frames)
            }

            func close() { inner.close() }
        }
    }

    private static func expectGathered(_ batches: [[String]], writes: [String]) {
        #expect(batches.joined().map { $0 } == writes, "every write went out once, in order")
        #expect(batches.allSatisfy { $0.count <= RequestOutbox.framesPerWrite })
        let least = (writes.count + RequestOutbox.framesPerWrite - 1) / RequestOutbox.framesPerWrite
        #expect(batches.count == least, "\(batches.map(\.count)): full batches but the last")
    }

    @Test func aRestoredQueueGoesOutInBatches() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try await TestServer.start()
        let first = PersistenceIntegrationTests.client(port: server.port, directory: directory)
        first.goOffline()
        let paths = (0..<150).map { "/gathered/q\($0)" }
        for (index, path) in paths.enumerated() { first.reference(withPath: path).setValue(index, andPriority: nil) }
        first.close()

        let transport = BatchRecordingTransport()
        let second = PersistenceIntegrationTests.client(port: server.port, directory: directory, transport: transport)
        await second.waitForPendingWrites()
        #expect(second.pendingWrites.isEmpty)
        Self.expectGathered(transport.writeBatches(under: "/gathered/"), writes: paths)
        let stored = try await http("GET", "/gathered/q149.json", port: server.port)
        #expect(stored.json == 149)
        second.close()
    }

    @Test func writesHeldOfflineGoOutInBatchesOnReconnect() async throws {
        let server = try await TestServer.start()
        let transport = BatchRecordingTransport()
        let database = Database(url: "http://127.0.0.1:\(server.port)?ns=demo", transport: transport)
        try await database.reference(withPath: "connected").setValue(true)
        database.goOffline()
        let paths = (0..<100).map { "/held/q\($0)" }
        for (index, path) in paths.enumerated() { database.reference(withPath: path).setValue(index, andPriority: nil) }
        database.goOnline()
        await database.waitForPendingWrites()
        Self.expectGathered(transport.writeBatches(under: "/held/"), writes: paths)
        let stored = try await http("GET", "/held/q99.json", port: server.port)
        #expect(stored.json == 99)
        database.close()
    }
}
