import Logging
import RTDBCore
import Testing

@testable import RTDBClient

/// The queue's public view, reused while only its oldest writes leave, is always the view made
/// afresh from every entry.
@Suite struct PendingWriteSnapshotTests {
    /// Random runs of adds, sends, acknowledgements of the oldest and of others, dead letters,
    /// drops of the connection and pauses, with snapshots taken between some of them.
    @Test func aReusedSnapshotIsTheSnapshotMadeAfresh() throws {
        var random = SeededRandom(seed: 27_11_2026)
        for trial in 0..<40 {
            let queue = PendingWriteQueue(store: nil, logger: Logger(label: "test"))
            var nextID = 1
            var live: [Int] = []
            for step in 0..<400 {
                switch Int.random(in: 0..<20, using: &random) {
                case 0..<5:
                    let write = StoredWrite(
                        id: nextID, kind: .set, path: Path("q/\(nextID)"), data: .int(Int64(nextID)),
                        enqueuedAt: UnixTime(millisecondsSince1970: Int64(step)))
                    try queue.add(write, within: .max)
                    live.append(nextID)
                    nextID += 1
                case 5..<7:
                    if let id = live.randomElement(using: &random) { queue.markSent(id) }
                case 7..<13:
                    // Acknowledgements mostly of the oldest write, as a drain makes them.
                    if let id = live.first {
                        queue.remove(id)
                        live.removeFirst()
                    }
                case 13..<15:
                    if let index = live.indices.randomElement(using: &random) { queue.remove(live.remove(at: index)) }
                case 15:
                    if let index = live.indices.randomElement(using: &random) {
                        queue.deadLetter(
                            live.remove(at: index), status: .permissionDenied, reason: "test",
                            at: UnixTime(millisecondsSince1970: 0))
                    }
                case 16:
                    queue.markAllQueued()
                case 17:
                    queue.setPaused(Bool.random(using: &random) ? "paused" : nil)
                default:
                    break
                }
                if Int.random(in: 0..<3, using: &random) == 0 {
                    let snapshot = queue.snapshot
                    let fresh = queue.freshSnapshot()
                    #expect(snapshot == fresh, "trial \(trial), step \(step)")
                    #expect(snapshot.map(\.id) == live, "trial \(trial), step \(step)")
                    if snapshot != fresh { return }
                }
            }
        }
    }
}
