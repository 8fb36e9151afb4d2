import RTDBCore
import Synchronization

/// Reads of cached data started before the listens that need them are processed.
///
/// While the engine starts (the file opens, the write queue is restored and replayed on the
/// repo's queue), the cache of the listens the app adds, and of those it had open when it last
/// stopped, is read on another core; the views then start from it instead of reading the disk
/// themselves. Everything read ahead is dropped at the first change to the cache, so nothing
/// stale is ever served. Thread-safe: the app adds listens from any thread.
final class ReadAhead: Sendable {
    private struct State {
        var store: ClientStore?
        /// Whether new reads may start (only while the engine starts, and before any change).
        var accepting = true
        /// Locations asked for before the file was open.
        var waiting: [Path] = []
        var reads: [CachePrefetch] = []
        /// Every read started and not yet waited for, dropped ones too (without their data): the
        /// store must not close under one.
        var started: [CachePrefetch] = []
    }

    private let state = Mutex(State())
    /// At most this many locations are read ahead (the rest read the cache when processed).
    static let limit = 8

    /// A listen at `path` is coming: read its cached data now if the engine is still starting.
    func request(_ path: Path) {
        state.withLock { state in
            let requested = state.waiting + state.reads.flatMap(\.paths)
            guard state.accepting, requested.count < Self.limit, !requested.contains(path) else { return }
            if let store = state.store {
                let read = CachePrefetch(store: store, paths: [path])
                state.reads.append(read)
                state.started.append(read)
            } else {
                state.waiting.append(path)
            }
        }
    }

    /// The file is open: starts the reads asked for so far, and those of `paths`.
    func start(_ store: ClientStore, paths: [Path]) {
        state.withLock { state in
            guard state.accepting else { return }
            state.store = store
            var all = state.waiting
            for path in paths where !all.contains(path) && all.count < Self.limit { all.append(path) }
            state.waiting = []
            if !all.isEmpty {
                let read = CachePrefetch(store: store, paths: all)
                state.reads.append(read)
                state.started.append(read)
            }
        }
    }

    /// The engine has started: later listens read the cache themselves, at once.
    func stopAccepting() {
        state.withLock { state in
            state.accepting = false
            state.waiting = []
            state.store = nil
        }
    }

    /// Forgets everything read ahead and starts nothing more (the cache changed, or the listens
    /// added while the engine started have all been set up).
    func invalidate() {
        let dropped = state.withLock { state in
            defer {
                state.accepting = false
                state.waiting = []
                state.reads = []
                state.store = nil
            }
            return state.reads
        }
        // Kept until shutdown only to be waited for: without what they read.
        for read in dropped { read.discard() }
    }

    /// Returns once every read started has finished: before the store closes (a read on another
    /// core racing the close crashed in SQLite, a clean-clone CI run's segfault).
    func waitForReads() {
        let started = state.withLock { state in
            defer { state.started = [] }
            return state.started
        }
        for read in started { read.waitUntilDone() }
    }

    /// The data read ahead at `path` (waiting for the read if it is still running), or nil.
    func take(_ path: Path) -> Node? {
        let reads = state.withLock { $0.reads }
        for read in reads {
            if let node = read.take(path) { return node }
        }
        return nil
    }
}
