import PresenceModel
import RTDBCore
import Testing

/// The chunked list behaves as an array through inserts, removals and writes anywhere, across
/// chunk splits and emptied chunks, and versions never see each other's changes.
@Suite struct ChunkedListTests {
    @Test func behavesAsAnArray() {
        var random = SeededRandom(seed: 5)
        var list = ChunkedList<Int>()
        var array: [Int] = []
        for step in 0..<20_000 {
            let roll = Int.random(in: 0..<10, using: &random)
            if roll < 6 || array.isEmpty {
                let position = Int.random(in: 0...array.count, using: &random)
                list.insert(step, at: position)
                array.insert(step, at: position)
            } else if roll < 9 {
                let position = Int.random(in: 0..<array.count, using: &random)
                #expect(list.remove(at: position) == array.remove(at: position))
            } else {
                let position = Int.random(in: 0..<array.count, using: &random)
                list[position] = -step
                array[position] = -step
            }
            if step % 997 == 0 {
                #expect(list.elements == array)
                #expect(Array(list) == array)
            }
        }
        #expect(list.count == array.count)
        #expect((0..<array.count).allSatisfy { list[$0] == array[$0] })
    }

    @Test func removingEverythingLeavesAnEmptyListThatStillTakesInserts() {
        var list = ChunkedList(0..<5_000)
        while !list.isEmpty { list.remove(at: list.count / 2) }
        #expect(list.elements.isEmpty)
        list.append(7)
        list.insert(6, at: 0)
        #expect(list.elements == [6, 7])
    }

    @Test func versionsAreValues() {
        let first = ChunkedList(0..<3_000)
        var second = first
        #expect(second.isSameVersion(as: first))
        second[2_500] = -1
        second.insert(-2, at: 10)
        second.remove(at: 0)
        #expect(!second.isSameVersion(as: first))
        #expect(first.elements == Array(0..<3_000))
        var expected = Array(0..<3_000)
        expected[2_500] = -1
        expected.insert(-2, at: 10)
        expected.remove(at: 0)
        #expect(second.elements == expected)
    }

    @Test func partitionPointIsABinarySearch() {
        let list = ChunkedList(stride(from: 0, to: 10_000, by: 2))
        #expect(list.partitionPoint { $0 < 0 } == 0)
        #expect(list.partitionPoint { $0 < 1_001 } == 501)
        #expect(list.partitionPoint { $0 < 1_000 } == 500)
        #expect(list.partitionPoint { _ in true } == list.count)
    }
}
