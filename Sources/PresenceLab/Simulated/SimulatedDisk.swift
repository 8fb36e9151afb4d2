import OrderedCollections
import RTDBCore
import RTDBServer
import Synchronization

/// A server's disk in a simulated run: what its stores made durable outlives the server's kill,
/// and faults fill it.
///
/// Each start of the server gets a store of its own (``store()``); a kill retires it, so that a
/// dead server's late commits reach nothing, as a killed process's would. Everything happens at
/// once, on the caller's task: no thread of its own decides when a commit ends.
final class SimulatedDisk: Sendable {
    private struct State {
        var root = Node.empty
        var sequence: UInt64 = 0
        var log: [LogRecord] = []
        var keys: [(key: String, sequence: UInt64)] = []
        var onDisconnect = OrderedDictionary<String, OnDisconnectRecord>()
        var generation = 0
        var full = false
    }

    private let state = Mutex(State())

    /// What a store of a retired generation, or a write to a full disk, throws.
    struct Refused: Error, CustomStringConvertible {
        let description: String
    }

    /// A store for the server starting now; the previous one's calls fail from now on.
    func store() -> any DurableStore {
        let generation = state.withLock { state -> Int in
            state.generation += 1
            return state.generation
        }
        return Store(disk: self, generation: generation)
    }

    /// Retires the current store (its server was killed).
    func retire() { state.withLock { $0.generation += 1 } }

    /// Fills the disk (true) or gives it room again (false).
    func setFull(_ full: Bool) { state.withLock { $0.full = full } }

    private func withLive<T>(_ generation: Int, _ body: (inout State) throws -> T) throws -> T {
        try state.withLock { state in
            guard state.generation == generation else { throw Refused(description: "the server process is gone") }
            return try body(&state)
        }
    }

    /// One server's view of the disk.
    private struct Store: DurableStore {
        let disk: SimulatedDisk
        let generation: Int
        /// How many idempotency keys it keeps (more than a simulated run makes).
        static let keptKeys = 500_000

        func load() async throws -> (root: Node, sequence: UInt64) {
            try disk.withLive(generation) { state in
                var root = state.root
                var sequence = state.sequence
                for record in state.log where record.sequence > sequence {
                    root = try record.apply(to: root)
                    sequence = record.sequence
                }
                return (root, sequence)
            }
        }

        func loadAppliedKeys(limit: Int) async throws -> [(key: String, sequence: UInt64)] {
            try disk.withLive(generation) { Array($0.keys.suffix(limit)) }
        }

        func loadOnDisconnect() async throws -> [OnDisconnectRecord] {
            try disk.withLive(generation) { Array($0.onDisconnect.values) }
        }

        func append(_ records: [LogRecord], onDisconnect: [OnDisconnectRecord], checkpoint: Checkpoint?)
            async throws
        {
            try disk.withLive(generation) { state in
                guard !state.full else { throw Refused(description: "no space left on the simulated disk") }
                for record in onDisconnect {
                    if record.isRemoval {
                        state.onDisconnect[record.sessionID] = nil
                    } else {
                        state.onDisconnect[record.sessionID] = record
                    }
                }
                state.log += records
                for record in records {
                    if let key = record.idempotencyKey { state.keys.append((key, record.sequence)) }
                }
                if state.keys.count > 2 * Self.keptKeys { state.keys.removeFirst(Self.keptKeys) }
                if let checkpoint {
                    state.root = checkpoint.root
                    state.sequence = checkpoint.sequence
                    state.log.removeAll { $0.sequence <= checkpoint.sequence }
                }
            }
        }

        var isVolatile: Bool { false }

        func close() async throws {}
    }
}
