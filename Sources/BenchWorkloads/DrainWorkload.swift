import Dispatch
import Foundation
import Logging
import RTDBClient
import RTDBWire
import Synchronization

/// The drain benchmark's client side alone, for an instruction count: a queue of sets made
/// offline, then the next run of the app drains it to a peer that acknowledges every request.
///
/// The timed `drain` runs against the real server; here the peer answers in this process, so
/// that callgrind counts the client engine's work a write (start, replay, hand-over, the
/// acknowledgement's settling and its save) and nothing of a server's.
public enum DrainWorkload {
    /// Queues `writes` sets offline in the persistence of `directory` (one run of the app).
    public static func prepare(writes: Int, directory: URL) {
        let database = open(directory, transport: AcknowledgingTransport())
        database.goOffline()
        let queue = database.reference(withPath: "drain/queue")
        for index in 0..<writes { queue.child("q\(index)").setValue(["n": index], andPriority: nil) }
        database.close()
    }

    /// Starts again on `directory` and waits until every queued write is acknowledged.
    public static func drain(directory: URL) {
        let database = open(directory, transport: AcknowledgingTransport())
        let done = DispatchSemaphore(value: 0)
        database.waitForPendingWrites { done.signal() }
        done.wait()
        database.close()
    }

    private static func open(_ directory: URL, transport: any Transport) -> Database {
        var logger = Logger(label: "bench.drain")
        logger.logLevel = .error
        let database = Database(url: "http://127.0.0.1:9?ns=bench", transport: transport, logger: logger)
        database.persistenceDirectory = directory
        database.isPersistenceEnabled = true
        return database
    }
}

/// A peer that says hello and acknowledges every request, in order, on a queue of its own (as a
/// socket's reads arrive on another thread).
final class AcknowledgingTransport: Transport {
    func connect(to url: String, onEvent: @escaping @Sendable (TransportEvent) -> Void) -> any TransportConnection {
        let connection = Connection(onEvent: onEvent)
        connection.open()
        return connection
    }

    private final class Connection: TransportConnection {
        private let onEvent: @Sendable (TransportEvent) -> Void
        private let queue = DispatchQueue(label: "bench.drain.peer")
        private let closed = Atomic<Bool>(false)

        init(onEvent: @escaping @Sendable (TransportEvent) -> Void) {
            self.onEvent = onEvent
        }

        func open() {
            queue.async { [self] in
                onEvent(.opened)
                let hello = #"{"t":"c","d":{"t":"h","d":{"ts":1,"v":"5","h":"127.0.0.1","s":"probe"}}}"#
                onEvent(.frame(hello))
            }
        }

        func send(_ frame: String) { send([frame]) }

        func send(_ frames: [String]) {
            let numbers = frames.compactMap(Self.requestNumber)
            guard !numbers.isEmpty else { return }
            queue.async { [self] in
                guard !closed.load(ordering: .relaxed) else { return }
                for number in numbers { onEvent(.frame(WireMessage.acknowledgementText(number: number))) }
            }
        }

        func close() {
            guard !closed.exchange(true, ordering: .relaxed) else { return }
            queue.async { [self] in onEvent(.closed(reason: nil)) }
        }

        /// The `r` of a data message (`{"t":"d","d":{"r":N,…`), read without parsing the rest.
        private static let requestPrefix = Array(#"{"t":"d","d":{"r":"#.utf8)

        private static func requestNumber(_ frame: String) -> Int? {
            let prefix = requestPrefix
            return frame.utf8.withContiguousStorageIfAvailable { bytes -> Int? in
                guard bytes.prefix(prefix.count).elementsEqual(prefix) else { return nil }
                var number = 0
                var digits = 0
                for byte in bytes.dropFirst(prefix.count) {
                    guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { break }
                    number = number * 10 + Int(byte - UInt8(ascii: "0"))
                    digits += 1
                }
                return digits > 0 ? number : nil
            } ?? nil
        }
    }
}
