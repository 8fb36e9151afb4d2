import RTDBCore
import Testing

@testable import RTDBClient

/// How restored writes go back into the view: runs of plain sets and removes together, in order
/// with everything that must go alone.
@Suite struct ReplayStepTests {
    static func write(_ id: Int, _ kind: PendingWrite.Kind, _ data: JSONValue = .number(.int(1))) -> StoredWrite {
        StoredWrite(
            id: id, kind: kind, path: Path("w\(id)"), data: data, enqueuedAt: UnixTime(millisecondsSince1970: 0))
    }

    @Test func plainSetsAndRemovesRunTogetherBetweenTheWritesThatGoAlone() {
        let timestamp: JSONValue = .object([".sv": .string("timestamp")])
        let writes = [
            Self.write(1, .set), Self.write(2, .remove, .null), Self.write(3, .set, .object(["at": timestamp])),
            Self.write(4, .update, .object(["x": .number(.int(1))])), Self.write(5, .set), Self.write(6, .transaction),
            Self.write(7, .set), Self.write(8, .set),
        ]
        let steps = ReplayStep.plan(writes)
        #expect(steps.map(\.writeIDs) == [[1, 2], [3], [4], [5], [6], [7, 8]])
        #expect(steps.map(\.name) == ["overwrites", "one", "one", "overwrites", "held", "overwrites"])
        #expect(ReplayStep.plan([]).isEmpty)
    }

    @Test func aRunCarriesEachWritesNode() throws {
        guard case .overwrites(let run) = try #require(ReplayStep.plan([Self.write(1, .set, .string("x"))]).first)
        else {
            Issue.record("not a run")
            return
        }
        #expect(run.map(\.node) == [Node(.string("x"))])
    }
}

extension ReplayStep {
    /// The ids of the step's writes, in order.
    fileprivate var writeIDs: [Int] {
        switch self {
        case .overwrites(let run): run.map(\.write.id)
        case .one(let write), .heldTransaction(let write): [write.id]
        }
    }

    fileprivate var name: String {
        switch self {
        case .overwrites: "overwrites"
        case .one: "one"
        case .heldTransaction: "held"
        }
    }
}
