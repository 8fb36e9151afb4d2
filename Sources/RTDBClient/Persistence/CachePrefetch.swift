import Dispatch
import RTDBCore
import Synchronization

/// Cached data read ahead, on another core, for the queries the app had open when it last
/// stopped: apps open the same screens again, and their first listens then find the data read
/// while the write queue was being restored.
///
/// A read is taken at most once; whoever manages the cache drops the prefetch as soon as the
/// cache changes, so nothing stale is ever served.
final class CachePrefetch: Sendable {
    /// The locations read ahead.
    let paths: Set<Path>
    private let results = Mutex<[Path: Node]>([:])
    private let done = DispatchSemaphore(value: 0)

    init(store: ClientStore, paths: [Path]) {
        self.paths = Set(paths)
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            for path in paths {
                guard let node = try? store.serverCache(at: path) else { continue }
                results.withLock { $0[path] = node }
            }
            done.signal()
        }
    }

    /// The node read ahead at `path` (waiting for the read if it is still running), or nil.
    func take(_ path: Path) -> Node? {
        guard paths.contains(path) else { return nil }
        done.wait()
        done.signal()
        return results.withLock { $0.removeValue(forKey: path) }
    }
}
