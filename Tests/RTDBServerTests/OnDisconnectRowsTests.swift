import Foundation
import RTDBCore
import RTDBServer
import RTDBTestSupport
import Testing

/// The store's onDisconnect rows, saved many at a statement, are what saving them one at a time
/// in order leaves, on a real SQLite file.
@Suite struct OnDisconnectRowsTests {
    static func record(_ session: String, _ value: Int64?) -> OnDisconnectRecord {
        OnDisconnectRecord(
            sessionID: session, auth: nil, writes: value.map { [(Path("a/\($0)"), Node(trustedJSON: .int($0)))] } ?? [])
    }

    /// 200 sessions stored, one stored again, 150 removed (more than a statement holds) with
    /// stores in the middle of the removals (one of a session just removed), in one append: the
    /// survivors keep their order and their last writes; a removal of a session never stored is
    /// no error.
    @Test func runsOfStoresAndRemovalsLeaveWhatOneByOneLeaves() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("t.sqlite").path
        let store = try SQLiteStore(path: path)
        var records = (0..<200).map { Self.record("s\($0)", Int64($0)) }
        records.append(Self.record("s101", 7_000))
        records += (0..<75).map { Self.record("s\($0 * 2)", nil) }
        records.append(Self.record("late", 1))
        records.append(Self.record("s0", 5))  // removed above, back again: kept, and now last but one
        records += (75..<150).map { Self.record("s\($0 * 2 % 200 + ($0 >= 100 ? 1 : 0))", nil) }
        records.append(Self.record("never stored", nil))
        try await store.append([], onDisconnect: records, checkpoint: nil)
        try await store.close()

        var expected: [(String, String)] = []
        var alive: [String: String] = [:]
        var order: [String] = []
        for record in records {
            if record.isRemoval {
                alive[record.sessionID] = nil
                order.removeAll { $0 == record.sessionID }
            } else {
                if alive[record.sessionID] == nil { order.append(record.sessionID) }
                alive[record.sessionID] = record.writesText
            }
        }
        for session in order { expected.append((session, alive[session] ?? "")) }
        let loaded = try await SQLiteStore(path: path).loadOnDisconnect()
        #expect(loaded.map(\.sessionID) == expected.map(\.0))
        #expect(loaded.map(\.writesText) == expected.map(\.1))
        #expect(loaded.first { $0.sessionID == "s101" }?.writesText == Self.record("s101", 7_000).writesText)
    }
}
