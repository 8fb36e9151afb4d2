import Foundation
import RTDBCore
import RTDBTestSupport
import RTDBWire
import Testing

@testable import RTDBClient

/// `persistenceMaxPendingBytes`: the write queue is bounded, against real SQLite files and a real
/// server. (Reported of Firebase: over 1 GB of queued writes, and an app that could not start.)
@Suite struct PendingBytesBoundTests {
    /// Each value below is stored as `"xxxx…"`: 100 bytes of JSON text.
    static let value = String(repeating: "x", count: 98)

    @Test func aWritePastTheBoundFailsAndIsNeitherAppliedNorQueued() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try await TestServer.start()
        let first = PersistenceIntegrationTests.client(port: server.port, directory: directory)
        try first.setPersistenceMaxPendingBytes(250)
        // notes/c is known (a listener holds it), so a local write there would raise an event.
        try await first.reference(withPath: "notes/c").setValue("before")
        let values = Recorder<String>()
        first.reference(withPath: "notes/c").observe(.value) { snapshot in
            values.record(snapshot.value as? String ?? "none")
        }
        #expect(await values.wait { $0 == ["before"] })
        first.goOffline()
        for key in ["a", "b"] { first.reference(withPath: "notes/\(key)").setValue(Self.value, andPriority: nil) }
        #expect(first.pendingWriteBytes == 200)

        let refused = Recorder<DatabaseError?>()
        first.reference(withPath: "notes/c").setValue(Self.value) { error, _ in refused.record(error as? DatabaseError)
        }
        #expect(await refused.wait { $0.count == 1 })
        let error = try #require(refused.all.first ?? nil)
        #expect(error.code == .queueFull)
        #expect(error.message.contains("holds 200 bytes and its bound is 250"), "\(error.message)")
        #expect(first.pendingWrites.map(\.path) == ["/notes/a", "/notes/b"], "not queued")
        // Events are raised before a completion, on the same queue: none came for it.
        #expect(values.all == ["before"], "not applied locally either")
        first.close()

        // The bound holds across a restart, and the queue is back whole.
        let second = PersistenceIntegrationTests.client(port: server.port, directory: directory)
        try second.setPersistenceMaxPendingBytes(250)
        second.goOffline()
        #expect(second.pendingWrites.map(\.path) == ["/notes/a", "/notes/b"])
        #expect(second.pendingWriteBytes == 200)
        let again = Recorder<WireStatus?>()
        second.reference(withPath: "notes/c").setValue(Self.value) { error, _ in
            again.record((error as? DatabaseError)?.code)
        }
        #expect(await again.wait { $0 == [.queueFull] })

        // Once the queue drains, writes are taken again.
        second.goOnline()
        await second.waitForPendingWrites()
        #expect(second.pendingWriteBytes == 0)
        try await second.reference(withPath: "notes/c").setValue(Self.value)
        let notes = try #require(try await http("GET", "/notes.json", port: server.port).json)
        #expect(notes["a"]?.stringValue == Self.value)
        #expect(notes["b"]?.stringValue == Self.value)
        #expect(notes["c"]?.stringValue == Self.value)
        second.close()
        await server.stop()
    }

    @Test func aLoweredBoundKeepsEveryQueuedWriteAndRefusesNewOnes() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try await TestServer.start()
        let client = PersistenceIntegrationTests.client(port: server.port, directory: directory)
        client.goOffline()
        for key in ["a", "b", "c"] { client.reference(withPath: "notes/\(key)").setValue(Self.value, andPriority: nil) }
        client.persistenceMaxPendingBytes = 150
        let refused = Recorder<WireStatus?>()
        client.reference(withPath: "notes/d").setValue(1) { error, _ in refused.record((error as? DatabaseError)?.code)
        }
        #expect(await refused.wait { $0 == [.queueFull] })
        // A transaction is bounded the same way: its place in the queue does not fit either.
        let transaction = Recorder<String>()
        client.reference(withPath: "notes/e").runTransactionBlock(
            { data in
                data.value = 1
                return .success(withValue: data)
            },
            andCompletionBlock: { error, committed, _ in
                transaction.record("\((error as? DatabaseError)?.code.rawValue ?? "none") committed: \(committed)")
            })
        #expect(await transaction.wait { $0 == ["queue_full committed: false"] })
        #expect(client.pendingWrites.count == 3, "nothing accepted is dropped")
        #expect(client.pendingWriteBytes == 300)
        #expect(throws: PersistenceSettingError.self) { try client.setPersistenceMaxPendingBytes(0) }
        #expect(client.persistenceMaxPendingBytes == 150)
        client.close()
        await server.stop()
    }
}
