import RTDBCore
import RTDBWire
import Testing

@testable import RTDBServer

/// A namespace's data alone: what an apply changes and records, and what a refused batch takes
/// back.
@Suite struct NamespaceDataTests {
    static let loaded = Node(trustedJSON: ["a": 1])

    @Test func eachApplyIsTheNextWriteWithItsRecordAndKey() {
        var data = NamespaceData(root: Self.loaded, sequence: 10, keys: [("old", 9)])
        #expect(data.sequence(ofKey: "old") == 9)
        let set = data.apply(
            .set(path: Path("b"), node: Node(trustedJSON: "x")), newRoot: nil, idempotencyKey: "k1", recordText: nil,
            volatile: false)
        #expect(set.sequence == 11 && set.kind == .set && set.data == #""x""# && set.idempotencyKey == "k1")
        #expect(data.sequence(ofKey: "k1") == 11 && data.appliedSequence == 11)
        #expect(data.working == Node(trustedJSON: ["a": 1, "b": "x"]))
        #expect(data.served == Self.loaded, "readers see the stored tree until it is published")

        let judged = Node(trustedJSON: ["a": 2])
        let merge = data.apply(
            .merge(path: .root, children: [(Path("a"), Node(trustedJSON: 2))]), newRoot: judged, idempotencyKey: nil,
            recordText: #"{"a":2}"#, volatile: false)
        #expect(merge.kind == .merge && merge.data == #"{"a":2}"# && data.working == judged)
        let unkept = data.apply(
            .set(path: Path("c"), node: Node(trustedJSON: 3)), newRoot: nil, idempotencyKey: nil, recordText: nil,
            volatile: true)
        #expect(unkept.data.isEmpty && unkept.sequence == 13, "a store that keeps nothing gets no text")
    }

    @Test func aRefusedBatchTakesTheWorkingTreeBackToTheStoredOne() {
        var data = NamespaceData(root: Self.loaded, sequence: 1)
        _ = data.apply(
            .set(path: Path("a"), node: Node(trustedJSON: 5)), newRoot: nil, idempotencyKey: "k", recordText: nil,
            volatile: false)
        data.rollBack(to: 1)
        #expect(data.working == Self.loaded && data.appliedSequence == 1)
        #expect(data.sequence(ofKey: "k") == nil, "the refused write's key can be used again")
    }
}
