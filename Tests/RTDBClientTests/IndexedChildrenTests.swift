import RTDBCore
import Testing

@testable import RTDBClient

/// The previous sibling of a child event, found in the node's key order where that is the
/// index's order, must be the one a full sort finds.
@Suite struct IndexedChildrenTests {
    @Test(arguments: [Index.key, .priority])
    func theQuickPredecessorIsTheSortedOne(index: Index) throws {
        var random = SeededRandom(seed: 2026)
        var answered = 0
        for round in 0..<200 {
            // Keys that mix numbers (which sort as integers) and words; some with priorities.
            var children: [(ChildKey, Node)] = []
            for position in 0..<Int(random.next() % 40) {
                let key = random.next() % 3 == 0 ? "\(random.next() % 100)" : "k\(random.next() % 60)-\(position)"
                let priority: Priority? =
                    switch random.next() % 4 {
                    case 0: .number(.int(Int64(random.next() % 5)))
                    case 1: .string("p\(random.next() % 3)")
                    default: nil
                    }
                let node = Node(.number(.int(Int64(position))), priority: priority)
                children.append((ChildKey(key), node))
            }
            var parent = Node.empty
            for (key, node) in children { parent = parent.updatingChild(key, with: node) }
            let sorted = IndexedChildren(parent, index: index)
            for (key, node) in parent.children {
                let child = NamedNode(key: key, node: node)
                guard let quick = IndexedChildren.predecessor(of: child, in: parent, index: index) else { continue }
                answered += 1
                #expect(quick == sorted.predecessor(of: child), "round \(round), \(key) in \(parent.exportJSON)")
            }
        }
        // The quick answer is given most of the time (else the comparison above proves nothing).
        #expect(answered > 1_000, "answered \(answered)")
    }
}
