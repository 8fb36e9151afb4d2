import Foundation
import RTDBCore
import RTDBTestSupport
import Synchronization
import Testing

@testable import RTDBClient

/// A queue of writes on real SQLite files that outlives the app.
///
/// Restored in order after a restart, sent once, never mistaken for new writes, and sent by a
/// run that only makes a reference. Against a namespace in this process, on the test's clock
/// (the deterministic tier).
@Suite(.timeLimit(.minutes(2))) struct RestartedQueueTests {
    /// A client of `server` that keeps its queue and cache in `directory`.
    static func client(_ server: InProcessServer, _ time: TestTime, directory: URL) -> Database {
        let database = Database(url: "http://in-process?ns=demo", transport: server.transport, time: time.source)
        database.persistenceDirectory = directory
        database.isPersistenceEnabled = true
        return database
    }

    /// A namespace, and a first run of an app that makes `writes` offline and quits with them
    /// queued on disk; `body` gets the namespace, the time and a client for each later run.
    static func afterAnOfflineRun(
        writes: (Database) -> Void,
        then body: (InProcessServer, TestTime, () -> Database) async throws -> Void
    ) async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let time = TestTime(start: UnixTime(millisecondsSince1970: 1_767_225_600_000))
        let server = try await InProcessServer.start(time: time)
        let first = client(server, time, directory: directory)
        first.goOffline()
        writes(first)
        first.close()  // the process ends with the writes on disk only
        try await body(server, time) { client(server, time, directory: directory) }
        await server.stop()
    }

    /// What the namespace holds at `path`.
    static func stored(_ server: InProcessServer, _ path: String) async -> JSONValue {
        await server.engine.currentRoot.child(at: Path(path)).exportJSON
    }

    @Test func writesMadeOfflineSurviveARestartAndArriveOnce() async throws {
        let queued = Mutex<[PendingWrite]>([])
        try await Self.afterAnOfflineRun(
            writes: { first in
                first.reference(withPath: "counter").setValue(ServerValue.increment(1), andPriority: nil)
                first.reference(withPath: "notes/a").setValue("written offline", andPriority: nil)
                first.reference(withPath: "notes").updateChildValues(
                    ["b": "also offline", "c": ServerValue.timestamp()], withCompletionBlock: nil)
                first.reference(withPath: "gone").removeValue()
                queued.withLock { $0 = first.pendingWrites }
            },
            then: { server, time, restart async throws in
                let queued = queued.withLock { $0 }
                #expect(queued.map(\.kind) == [.set, .set, .update, .remove])
                #expect(queued.allSatisfy { $0.state == .queued && $0.attempts == 0 })
                #expect(queued.map(\.path) == ["/counter", "/notes/a", "/notes", "/gone"])

                await time.advance(by: .seconds(5))
                let second = restart()
                #expect(second.pendingWrites.map(\.id) == queued.map(\.id), "the queue is back, in order")
                await second.waitForPendingWrites()
                #expect(second.pendingWrites.isEmpty)
                #expect(await Self.stored(server, "counter") == 1)
                #expect(
                    await Self.stored(server, "notes")
                        == ["a": "written offline", "b": "also offline", "c": .int(1_767_225_605_000)],
                    "the server resolved the timestamp when it took the write")
                second.close()

                // A third run has nothing left to send: nothing is applied twice.
                let third = restart()
                #expect(third.pendingWrites.isEmpty)
                try await third.reference(withPath: "after").setValue(true)
                #expect(
                    await Self.stored(server, "after") == true,
                    "write ids are never reused, so a new write is never mistaken for an old one")
                #expect(await Self.stored(server, "counter") == 1)
                third.close()
            })
    }

    /// A write made just after a restart, with a long restored queue going out, reaches the
    /// server after every restored one (each sets `last`: the server keeps the one applied last).
    @Test func aWriteMadeWhileARestoredQueueGoesOutArrivesAfterIt() async throws {
        let count = 1_027
        try await Self.afterAnOfflineRun(
            writes: { first in
                for index in 0..<count { first.reference(withPath: "seq/last").setValue(index, andPriority: nil) }
            },
            then: { server, _, restart async throws in
                let second = restart()
                #expect(try await until(second.changes) { second.connectionStatus.phase.isConnected })
                second.reference(withPath: "seq/last").setValue(count, andPriority: nil)
                await second.waitForPendingWrites()
                #expect(await Self.stored(server, "seq/last") == .int(Int64(count)))
                second.close()
            })
    }

    @Test func theFirstReferenceStartsTheEngineAndQueuedWritesGoOut() async throws {
        try await Self.afterAnOfflineRun(
            writes: { first in
                for index in 0..<10 { first.reference(withPath: "queued/\(index)").setValue(index, andPriority: nil) }
            },
            then: { server, _, restart async throws in
                // A new run whose app only makes a reference, as an app that reads later would.
                let second = restart()
                _ = second.reference(withPath: "queued")
                #expect(
                    try await until(server.engine.changes) {
                        let queued = await Self.stored(server, "queued")
                        return (queued.arrayValue?.count ?? queued.objectValue?.count) == 10
                    },
                    "the ten writes reached the server without the app writing again")
                second.close()
            })
    }
}
