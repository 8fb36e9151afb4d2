import Dispatch
import RTDBCore
import Synchronization

/// One background read of cached locations, on another core (see ``ReadAhead``, which starts
/// them while the engine starts and drops them as soon as the cache changes).
///
/// Each location's node is taken at most once.
final class CachePrefetch: Sendable {
    /// The locations read ahead.
    let paths: Set<Path>
    private let results = Mutex<(nodes: [Path: Node], discarded: Bool)>(([:], false))
    private let done = DispatchSemaphore(value: 0)

    init(store: ClientStore, paths: [Path]) {
        self.paths = Set(paths)
        // A queue of its own, not a global one: the engine's queue may wait for this read
        // (``take(_:)``), and a global queue's few threads can all be waiting on engine queues
        // themselves (a caller's `performNow`), which would then never get one for it.
        DispatchQueue(label: "presencetop.cache-prefetch", qos: .userInitiated).async { [self] in
            for path in paths {
                // Dropped meanwhile: the rest is not read, and nothing read is kept.
                if results.withLock({ $0.discarded }) { break }
                guard let node = try? store.serverCache(at: path) else { continue }
                results.withLock { results in
                    if !results.discarded { results.nodes[path] = node }
                }
            }
            done.signal()
        }
    }

    /// Returns once the read is over (before the store closes: a read must not outlive it).
    func waitUntilDone() {
        done.wait()
        done.signal()
    }

    /// The node read ahead at `path` (waiting for the read if it is still running), or nil.
    func take(_ path: Path) -> Node? {
        guard paths.contains(path) else { return nil }
        done.wait()
        done.signal()
        return results.withLock { $0.nodes.removeValue(forKey: path) }
    }

    /// Lets go of what was read, and of what is still to be read: nothing will take it.
    func discard() {
        results.withLock { results in
            results.discarded = true
            results.nodes = [:]
        }
    }
}
