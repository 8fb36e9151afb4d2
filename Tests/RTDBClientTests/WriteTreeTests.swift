import Foundation
import RTDBCore
import RTDBTestSupport
import Testing

@testable import RTDBClient

/// Removing writes one at a time, in any order (acknowledgements in order, reverts out of it),
/// leaves what adding only the remaining writes gives.
@Suite struct WriteTreeTests {
    @Test(arguments: 0..<60) func removalsInAnyOrderMatchARebuild(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        let (keys, paths) = (SamplePaths.keys, SamplePaths.all)
        // A write: a set, or an update of one to three children.
        var writes: [(id: Int, path: Path, node: Node?, children: [(path: Path, node: Node)]?)] = []
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
        func tree(_ writes: [(id: Int, path: Path, node: Node?, children: [(path: Path, node: Node)]?)]) -> WriteTree {
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
        let incremental = tree(writes)
        var remaining = writes
        let base = Node(trustedJSON: ["a": ["a": 1, "z": 2], "b": "x"])
        while !remaining.isEmpty {
            // Mostly the oldest (an acknowledgement), sometimes any (a revert).
            let position =
                Int.random(in: 0..<10, using: &random) < 6 ? 0 : Int.random(in: 0..<remaining.count, using: &random)
            let removed = remaining.remove(at: position)
            _ = incremental.removeWrite(removed.id)
            let rebuilt = tree(remaining)
            for path in paths {
                #expect(
                    incremental.calcCompleteEventCache(path, completeServerCache: base.child(at: path))
                        == rebuilt.calcCompleteEventCache(path, completeServerCache: base.child(at: path)),
                    "seed \(seed): after removing write \(removed.id) at \(removed.path), at \(path)")
                #expect(incremental.shadowingWrite(path) == rebuilt.shadowingWrite(path), "seed \(seed), \(path)")
            }
        }
    }
}
