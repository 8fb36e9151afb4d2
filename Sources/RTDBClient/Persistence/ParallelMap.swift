import Dispatch
import Foundation
import Synchronization

/// Maps a large array on every core (for parsing thousands of stored rows at start-up).
enum ParallelMap {
    /// Below this many elements the work stays on the calling thread.
    static let threshold = 256

    /// `elements.map(transform)`, in order, split into one chunk per core.
    static func map<Element: Sendable, Result: Sendable>(
        _ elements: [Element], _ transform: @escaping @Sendable (Element) throws -> Result
    ) throws -> [Result] {
        guard elements.count > threshold else { return try elements.map(transform) }
        let chunks = min(ProcessInfo.processInfo.activeProcessorCount, 8)
        let results = Chunks<Result>()
        DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
            let range = (elements.count * chunk / chunks)..<(elements.count * (chunk + 1) / chunks)
            do {
                results.store(chunk, try elements[range].map(transform))
            } catch {
                results.fail(error)
            }
        }
        return try results.values(chunks: chunks)
    }

    /// Each chunk hands in its results once.
    private final class Chunks<Result: Sendable>: Sendable {
        private let state = Mutex<(chunks: [Int: [Result]], failure: (any Error)?)>(([:], nil))

        func store(_ chunk: Int, _ results: [Result]) { state.withLock { $0.chunks[chunk] = results } }

        func fail(_ error: any Error) { state.withLock { $0.failure = error } }

        func values(chunks count: Int) throws -> [Result] {
            try state.withLock { state in
                if let failure = state.failure { throw failure }
                return (0..<count).flatMap { state.chunks[$0] ?? [] }
            }
        }
    }
}
