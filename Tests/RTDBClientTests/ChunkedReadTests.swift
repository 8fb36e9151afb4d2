import Dispatch
import Synchronization
import Testing

@testable import RTDBClient

/// The hand-over of rows read on a thread of their own: in order, then the end or the reader's
/// error, and a reader that stops when asked.
@Suite struct ChunkedReadTests {
    struct ReadFailed: Error {}

    @Test func chunksComeInOrderThenTheEnd() throws {
        let read = ChunkedRead<Int> { yield in
            for start in stride(from: 0, to: 1_000, by: 100) { _ = yield(Array(start..<start + 100)) }
        }
        defer { read.stop() }
        var all: [Int] = []
        while let chunk = try read.next() { all += chunk }
        #expect(all == Array(0..<1_000))
        #expect(try read.next() == nil, "the end is the end")
    }

    @Test func anErrorComesAfterTheChunksReadBeforeIt() throws {
        let read = ChunkedRead<Int> { yield in
            _ = yield([1, 2])
            _ = yield([3])
            throw ReadFailed()
        }
        defer { read.stop() }
        #expect(try read.next() == [1, 2])
        #expect(try read.next() == [3])
        #expect(throws: ReadFailed.self) { try read.next() }
        #expect(try read.next() == nil, "the error is given once")
    }

    /// A reader that would never end stops at its next chunk once asked, and `stop` returns when
    /// it has ended (twice too).
    @Test func aReaderStopsWhenAsked() throws {
        let ended = DispatchSemaphore(value: 0)
        let chunks = Atomic<Int>(0)
        let read = ChunkedRead<Int> { yield in
            defer { ended.signal() }
            while yield([chunks.add(1, ordering: .relaxed).newValue]) {}
            throw ChunkedRead<Int>.Stopped()
        }
        #expect(try read.next() == [1])
        read.stop()
        #expect(ended.wait(timeout: .now()) == .success, "the reader had ended when stop returned")
        read.stop()
    }
}
