import Foundation
import RTDBCore
import RTDBTestSupport
import Testing

@testable import RTDBClient

/// The batched way a restart adds its queue to the write tree gives what one write at a time
/// gives.
@Suite struct CompoundWriteTests {
    /// Random overwrites over a few keys at depths 1 to 3, so that runs of siblings, a write above
    /// earlier ones, and a write below a value all occur; both ways give the same node over a
    /// base, and the same complete node at every path.
    @Test(arguments: 0..<40) func writesAddedTogetherMatchWritesAddedOneByOne(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        let (keys, paths) = (SamplePaths.keys, SamplePaths.all)
        var writes: [(path: Path, node: Node)] = []
        for index in 0..<Int.random(in: 1...60, using: &random) {
            // Mostly siblings under one parent, as a queue of pushes is.
            let sibling = Bool.random(using: &random)
            let path =
                sibling
                ? Path(segments: ["a", keys.randomElement(using: &random) ?? "a"])
                : paths.randomElement(using: &random) ?? .root
            let node = Node(trustedJSON: Bool.random(using: &random) ? .int(Int64(index)) : ["n": .int(Int64(index))])
            writes.append((path, node))
        }
        var oneByOne = CompoundWrite.empty
        for (path, node) in writes { oneByOne.addWrite(path, node) }
        var together = CompoundWrite.empty
        together.addWrites(writes)

        let base = Node(trustedJSON: ["a": ["b": 1, "z": 2], "b": "x"])
        #expect(together.apply(to: base) == oneByOne.apply(to: base), "seed \(seed)")
        for path in paths {
            #expect(together.completeNode(path) == oneByOne.completeNode(path), "seed \(seed), \(path)")
        }
    }

    /// A restarted queue whose runs of siblings are broken by a set above them, a write below a
    /// sibling and a server value shows, offline, what the queue showed before the restart.
    @Test func aRestartedQueueShowsWhatItShowedBefore() async throws {
        let folder = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        func open() -> Database {
            let database = Database(url: "http://127.0.0.1:9?ns=demo")
            database.persistenceDirectory = folder
            database.isPersistenceEnabled = true
            database.goOffline()
            return database
        }
        let first = open()
        let list = first.reference(withPath: "list")
        for key in ["a", "b", "c"] { list.child(key).setValue(key, andPriority: nil) }
        list.setValue(["keep": true], andPriority: nil)
        for key in ["d", "e"] { list.child(key).setValue(["n": key], andPriority: nil) }
        list.child("d/deep").setValue(1, andPriority: nil)
        first.reference(withPath: "count").setValue(ServerValue.increment(2), andPriority: nil)
        for key in ["f", "g"] { list.child(key).setValue(key, andPriority: nil) }
        list.child("a").removeValue()
        // Each is complete offline (a set covers it): a value event needs no server.
        let before = [
            try await Self.value(of: list), try await Self.value(of: first.reference(withPath: "count")),
        ]
        first.close()

        let second = open()
        let after = [
            try await Self.value(of: second.reference(withPath: "list")),
            try await Self.value(of: second.reference(withPath: "count")),
        ]
        #expect(after == before)
        #expect(
            before == [#"{"d":{"deep":1,"n":"d"},"e":{"n":"e"},"f":"f","g":"g","keep":true}"#, "2"])
        second.close()
    }

    /// The first value event's data, as JSON text.
    static func value(of reference: DatabaseReference) async throws -> String {
        let seen = Recorder<String>()
        reference.observeSingleEvent(of: .value) { snapshot in
            seen.record(
                (try? JSONSerialization.data(
                    withJSONObject: snapshot.value ?? NSNull(), options: [.sortedKeys, .fragmentsAllowed]))
                    .map { String(decoding: $0, as: UTF8.self) } ?? "?")
        }
        #expect(await seen.wait { !$0.isEmpty })
        return try #require(seen.last)
    }
}
