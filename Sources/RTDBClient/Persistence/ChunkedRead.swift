import DequeModule
import Dispatch
import Synchronization

/// Rows read on a thread of their own and handed over in chunks as they are read: the caller
/// works on one chunk while the next is read (a restart replays its queue while the rest of it
/// still comes off the disk).
///
/// The reader runs `read` once, which passes each chunk to the `yield` it is given; ``next()``
/// returns the chunks in order, then nil, or throws what `read` threw once the chunks read before
/// it are taken. ``stop()`` asks the reader to stop at its next chunk and waits for it to end.
final class ChunkedRead<Element: Sendable>: Sendable {
    private struct State {
        var chunks: Deque<[Element]> = []
        var failure: (any Error)?
        var stopping = false
        /// Whether ``next()`` has returned nil or thrown (the reader's end is taken once).
        var taken = false
    }

    private let state = Mutex(State())
    /// One signal for each chunk, and one when the reader ends.
    private let ready = DispatchSemaphore(value: 0)
    /// Signalled once, when the reader has ended.
    private let over = DispatchSemaphore(value: 0)

    /// What `read` throws to stop early, when `yield` tells it to.
    struct Stopped: Error {}

    /// Starts `read` on a thread of the system's; `yield` returns false once the reader should
    /// stop (it then throws ``Stopped``, or returns).
    init(read: @escaping @Sendable (_ yield: ([Element]) -> Bool) throws -> Void) {
        // The reader holds this object until it ends.
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            let yield = { (chunk: [Element]) -> Bool in
                let accepted = self.state.withLock { state in
                    guard !state.stopping else { return false }
                    state.chunks.append(chunk)
                    return true
                }
                if accepted { self.ready.signal() }
                return accepted
            }
            var failure: (any Error)?
            do {
                try read(yield)
            } catch is Stopped {
            } catch {
                failure = error
            }
            self.state.withLock { $0.failure = failure }
            self.ready.signal()
            self.over.signal()
        }
    }

    /// The next chunk, waiting for it to be read; nil when every chunk has been taken.
    ///
    /// - Throws: What the reader's `read` threw, once the chunks it read before are taken.
    func next() throws -> [Element]? {
        if state.withLock({ $0.taken }) { return nil }
        ready.wait()
        let (chunk, failure) = state.withLock { state -> ([Element]?, (any Error)?) in
            if let chunk = state.chunks.popFirst() { return (chunk, nil) }
            state.taken = true
            return (nil, state.failure)
        }
        if let failure { throw failure }
        return chunk
    }

    /// Asks the reader to stop at its next chunk, and waits until it has ended (its read
    /// transaction closed).
    func stop() {
        state.withLock { $0.stopping = true }
        // Signalled once at the end: taken and given back, so that a second stop returns too.
        over.wait()
        over.signal()
    }
}
