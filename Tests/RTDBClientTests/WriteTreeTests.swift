import Foundation
import RTDBCore
import RTDBTestSupport
import Testing

@testable import RTDBClient

/// Removing writes one at a time, in any order (acknowledgements in order, reverts out of it),
/// leaves what adding only the remaining writes gives.
@Suite struct WriteTreeTests {
    /// A write as these tests make them: a set of `node`, or an update of `children`.
    typealias Write = (id: Int, path: Path, node: Node?, children: [(path: Path, node: Node)]?)

    /// What the views read, below a server cache with children of its own.
    static let base = Node(trustedJSON: ["a": ["a": 1, "z": 2], "b": "x"])

    @Test(arguments: 0..<60) func removalsInAnyOrderMatchARebuild(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        let (keys, paths) = (SamplePaths.keys, SamplePaths.all)
        // A write: a set, or an update of one to three children.
        var writes: [Write] = []
        for id in 0..<Int.random(in: 1...24, using: &random) {
            let path = paths.randomElement(using: &random) ?? .root
            let value = Node(trustedJSON: Bool.random(using: &random) ? .int(Int64(id)) : ["v": .int(Int64(id))])
            if Bool.random(using: &random) {
                writes.append((id, path, value, nil))
            } else {
                let children = (0..<Int.random(in: 1...3, using: &random)).map { index in
                    (path: Path(segments: [keys[(id + index) % keys.count]]), node: value)
                }
                writes.append((id, path, nil, children))
            }
        }
        let incremental = Self.tree(writes)
        var remaining = writes
        while !remaining.isEmpty {
            // Mostly the oldest (an acknowledgement), sometimes any (a revert).
            let position =
                Int.random(in: 0..<10, using: &random) < 6 ? 0 : Int.random(in: 0..<remaining.count, using: &random)
            let removed = remaining.remove(at: position)
            _ = incremental.removeWrite(removed.id)
            Self.expectSame(incremental, remaining, "seed \(seed): after removing write \(removed.id)")
        }
    }

    /// Writes apart, then meeting, then apart again: each removal matches a rebuild.
    ///
    /// Writes at paths apart from each other come out without the path index; once one meets
    /// another, the index answers; once none is left, the next writes are apart again. Each
    /// removal leaves what adding only the remaining writes gives, and while every write is apart,
    /// each removal says the views must look again.
    @Test(arguments: 0..<40) func writesApartThenMeetingMatchARebuild(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        let keys = SamplePaths.keys
        let tree = WriteTree()
        var live: [Write] = []
        var meeting: Set<Int> = []
        var nextID = 0
        func add(_ write: Write) {
            if let node = write.node {
                tree.addOverwrite(write.path, node, writeID: write.id)
            } else {
                tree.addMerge(write.path, write.children ?? [], writeID: write.id)
            }
            live.append(write)
            nextID += 1
        }
        // A set of a new leaf under one of the keys, or an update of new children of one.
        func addApart() {
            let parent = keys.randomElement(using: &random) ?? "a"
            let value = Node(trustedJSON: ["n": .int(Int64(nextID))])
            if Bool.random(using: &random) {
                add((nextID, Path(segments: [parent, "k\(nextID)"]), value, nil))
            } else {
                let children = [(path: Path("u\(nextID)"), node: value), (path: Path("w\(nextID)"), node: value)]
                add((nextID, Path(segments: [parent]), nil, children))
            }
        }
        // A set at a sample path: half the time one of the keys, above the writes apart.
        func addMeeting() {
            let above = Bool.random(using: &random)
            let path =
                (above
                    ? keys.randomElement(using: &random).map { Path(segments: [$0]) }
                    : SamplePaths.all.randomElement(using: &random)) ?? .root
            meeting.insert(nextID)
            add((nextID, path, Node(trustedJSON: .int(Int64(nextID))), nil))
        }
        func remove(oldest: Bool) {
            let position = oldest ? 0 : Int.random(in: 0..<live.count, using: &random)
            let removed = live.remove(at: position)
            let apart = live.allSatisfy { !meeting.contains($0.id) } && !meeting.contains(removed.id)
            let changed = tree.removeWrite(removed.id)
            #expect(changed || !apart, "seed \(seed): write \(removed.id) was visible, and apart")
            Self.expectSame(tree, live, "seed \(seed): after removing write \(removed.id)")
        }
        for _ in 0..<4 {
            for _ in 0..<Int.random(in: 1...8, using: &random) { addApart() }
            for _ in 0..<Int.random(in: 0...(live.count / 2), using: &random) { remove(oldest: true) }
            if Bool.random(using: &random) {
                for _ in 0..<Int.random(in: 1...3, using: &random) { addMeeting() }
            }
            for _ in 0..<Int.random(in: 0...4, using: &random) { addApart() }
            while !live.isEmpty { remove(oldest: Int.random(in: 0..<10, using: &random) < 7) }
        }
    }

    private static func tree(_ writes: [Write]) -> WriteTree {
        let tree = WriteTree()
        for write in writes {
            if let node = write.node {
                tree.addOverwrite(write.path, node, writeID: write.id)
            } else {
                tree.addMerge(write.path, write.children ?? [], writeID: write.id)
            }
        }
        return tree
    }

    /// `tree` reads at every sample path as a tree of only `remaining` does.
    private static func expectSame(_ tree: WriteTree, _ remaining: [Write], _ context: String) {
        let rebuilt = Self.tree(remaining)
        for path in SamplePaths.all {
            #expect(
                tree.calcCompleteEventCache(path, completeServerCache: base.child(at: path))
                    == rebuilt.calcCompleteEventCache(path, completeServerCache: base.child(at: path)),
                "\(context), at \(path)")
            #expect(tree.shadowingWrite(path) == rebuilt.shadowingWrite(path), "\(context), at \(path)")
        }
    }
}
