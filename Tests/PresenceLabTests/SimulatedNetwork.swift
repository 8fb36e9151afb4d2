import Foundation
import PresenceLab
import RTDBClient
import RTDBCore
import RTDBRules
import RTDBTestSupport

/// A server and devices in this process on one test clock: each device reaches the server
/// through a ``SimulatedLink`` (offline, blackhole, latency, a heartbeat on the server's end), so
/// that reconnection, back-off, heartbeat death and onDisconnect are driven by the test's hand
/// on the clock, with no socket and no sleep.
struct SimulatedNetwork {
    /// 2026-01-01T00:00:00Z: a fixed start, so that stamps are the same on every run.
    static let start = UnixTime(millisecondsSince1970: 1_767_225_600_000)

    let time: TestTime
    let server: SimulatedServer
    let folder: URL

    /// A network whose server enforces `rules`, started.
    static func start(rules: SecurityRules = .open) async throws -> SimulatedNetwork {
        let time = TestTime(start: start)
        let server = SimulatedServer(time: time.source, rules: rules)
        try await server.start()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("simulated-network-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return SimulatedNetwork(time: time, server: server, folder: folder)
    }

    private init(time: TestTime, server: SimulatedServer, folder: URL) {
        self.time = time
        self.server = server
        self.folder = folder
    }

    /// A device on a new link; with `persistence`, its queue and cache live in that file of the
    /// network's folder.
    func device(
        _ label: String, heartbeat: Duration = .seconds(60), persistence: String? = nil,
        callbackQueue: DispatchQueue? = nil
    ) -> (link: SimulatedLink, database: Database) {
        let link = SimulatedLink(server: server, time: time.source, heartbeat: heartbeat, label: label)
        let database = Database(
            url: SimulatedLink.databaseURL, transport: link, time: time.source, callbackQueue: callbackQueue)
        if let persistence {
            database.persistenceDirectory = folder
            database.persistenceFileName = persistence
            database.isPersistenceEnabled = true
        }
        return (link, database)
    }

    /// Moves the clock on a `step` at a time until `condition` holds, at most by `limit`.
    ///
    /// Each of `databases`' queues is drained after each step (so that timers a step's events
    /// set keep their time); returns whether it came to hold. Time is the test's: a slow machine
    /// takes longer, not more of it.
    func run(
        upTo limit: Duration, step: Duration = .seconds(1), settling databases: [Database] = [],
        until condition: () async -> Bool
    ) async -> Bool {
        var passed = Duration.zero
        while true {
            for database in databases { await database.barrier() }
            if await condition() { return true }
            guard passed < limit else { return false }
            await time.advance(by: step)
            passed += step
        }
    }

    /// Stops the server and removes the folder.
    func tearDown(_ databases: [Database]) async {
        for database in databases { database.close() }
        await server.stop()
        try? FileManager.default.removeItem(at: folder)
    }
}
