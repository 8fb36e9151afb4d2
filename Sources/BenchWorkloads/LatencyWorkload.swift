import Dispatch
import Logging
import RTDBClient
import Synchronization

/// The latency benchmark's work, in one place for the timed run and the instruction count: the
/// Firebase JS SDK anchor's exact work.
///
/// A node of `children` children `{n, s}` with a `value` and a `child_changed` listener; each
/// set replaces one child, timed from the call to its `child_changed` callback.
public enum LatencyWorkload {
    /// One run's times, in ms, a set each.
    public struct Samples: Sendable {
        /// From the call to its `child_changed` callback.
        public var toEvent: [Double] = []
        /// From the call to its return: the engine's own work (the write taken, its events made
        /// and handed to the callback queue), without the callback queue's wake-up.
        public var call: [Double] = []
    }

    /// Runs `sets` sets: offline, or connected to `url`.
    public static func run(sets: Int, children: Int, url: String? = nil) -> Samples {
        var logger = Logger(label: "bench.latency")
        logger.logLevel = .error
        // Without a URL nothing listens (port 9): the database never connects, and stays offline.
        let database = Database(url: url ?? "http://127.0.0.1:9?ns=bench", logger: logger)
        if url == nil { database.goOffline() }
        let node = database.reference(withPath: "latency/items")
        var initial: [String: Any] = [:]
        for index in 0..<children { initial["k\(index)"] = ["n": index, "s": "item \(index)"] }
        node.setValue(initial, andPriority: nil)
        let changed = DispatchSemaphore(value: 0)
        let arrived = Mutex<UInt64>(0)
        node.observe(.value) { _ in }
        node.observe(.childChanged) { _ in
            arrived.withLock { $0 = DispatchTime.now().uptimeNanoseconds }
            changed.signal()
        }
        var samples = Samples()
        samples.toEvent.reserveCapacity(sets)
        samples.call.reserveCapacity(sets)
        for index in 0..<sets {
            let start = DispatchTime.now().uptimeNanoseconds
            node.child("k\(index % children)").setValue(["n": children + index, "s": "set \(index)"], andPriority: nil)
            let returned = DispatchTime.now().uptimeNanoseconds
            changed.wait()
            samples.call.append(Double(returned - start) / 1e6)
            samples.toEvent.append(Double(arrived.withLock { $0 } - start) / 1e6)
        }
        database.close()
        return samples
    }
}
