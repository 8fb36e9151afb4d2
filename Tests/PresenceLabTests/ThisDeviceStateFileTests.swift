import Foundation
import Logging
import Presence
import PresenceLab
import RTDBClient
import RTDBTestSupport
import Testing

/// This device's SQLite file: one name per setup, and earlier versions' per-port files picked up.
@Suite struct ThisDeviceStateFileTests {
    static let target = ServerTarget(host: "127.0.0.1", port: 41_234, namespace: "presencetop")

    @Test func theNameFollowsTheSetupNotThePort() {
        let data = URL(fileURLWithPath: "/srv/presencetop/data")
        let name = ThisDeviceStateFile.name(server: .embedded(dataDirectory: data), target: Self.target)
        var otherPort = Self.target
        otherPort.port = 50_000
        #expect(ThisDeviceStateFile.name(server: .embedded(dataDirectory: data), target: otherPort) == name)
        #expect(
            ThisDeviceStateFile.name(
                server: .embedded(dataDirectory: URL(fileURLWithPath: "/srv/presencetop/./data/")), target: otherPort)
                == name, "the same folder however it is written")
        #expect(
            ThisDeviceStateFile.name(
                server: .embedded(dataDirectory: URL(fileURLWithPath: "/elsewhere")), target: otherPort)
                != name, "another data folder is another queue")
        #expect(!name.contains("41234"))
        let remote = ServerTarget(host: "db.example.com", port: 9000, namespace: "demo")
        #expect(
            ThisDeviceStateFile.name(server: .remote(remote), target: remote) == "dashboard_db.example.com_9000_demo")
    }

    /// Makes a persistence file named `name` in `directory` with `writes` queued writes.
    static func makeFile(_ name: String, in directory: URL, writes: Int) async throws {
        let database = Database(url: "http://127.0.0.1:1?ns=presencetop")
        database.persistenceDirectory = directory
        database.persistenceFileName = name
        database.isPersistenceEnabled = true
        database.goOffline()
        database.reference(withPath: "warmup").keepSynced(true)
        for index in 0..<writes {
            database.reference(withPath: "notes/morgan/\(index)").setValue(index, andPriority: nil)
        }
        #expect(database.pendingWrites.count == writes)
        database.close()
    }

    @Test func earlierFilesArePickedUpOrCleaned() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try await Self.makeFile("dashboard_127.0.0.1_40001_presencetop", in: directory, writes: 2)
        try await Self.makeFile("dashboard_127.0.0.1_40002_presencetop", in: directory, writes: 1)
        try await Self.makeFile("dashboard_127.0.0.1_40003_presencetop", in: directory, writes: 0)
        try await Self.makeFile("dashboard_127.0.0.1_40004_other", in: directory, writes: 1)
        try await Self.makeFile("dashboard_db.example.com_443_presencetop", in: directory, writes: 1)
        // 40001 is the oldest: 40002 holds the last run's queue.
        for suffix in ["", "-wal"] {
            let path = directory.appendingPathComponent("dashboard_127.0.0.1_40001_presencetop.sqlite\(suffix)").path
            guard FileManager.default.fileExists(atPath: path) else { continue }
            try FileManager.default.setAttributes(
                [.modificationDate: Date(timeIntervalSinceNow: -3_600)], ofItemAtPath: path)
        }

        let name = ThisDeviceStateFile.name(server: .embedded(dataDirectory: directory), target: Self.target)
        let adoption = ThisDeviceStateFile.adoptEarlierFiles(
            in: directory, namespace: "presencetop", as: name, logger: Logger(label: "test"))
        #expect(adoption.adopted == "dashboard_127.0.0.1_40002_presencetop.sqlite")
        #expect(adoption.deleted == ["dashboard_127.0.0.1_40003_presencetop.sqlite"])
        #expect(adoption.kept == ["dashboard_127.0.0.1_40001_presencetop.sqlite"])
        let adopted = directory.appendingPathComponent(name + ".sqlite")
        #expect(try Database.queuedWriteCount(inPersistenceFile: adopted) == 1)
        let left = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter {
            $0.hasSuffix(".sqlite")
        }
        #expect(
            Set(left) == [
                name + ".sqlite", "dashboard_127.0.0.1_40001_presencetop.sqlite",
                "dashboard_127.0.0.1_40004_other.sqlite",
                "dashboard_db.example.com_443_presencetop.sqlite",
            ])
        // Once the file exists, nothing more is touched.
        let again = ThisDeviceStateFile.adoptEarlierFiles(
            in: directory, namespace: "presencetop", as: name, logger: Logger(label: "test"))
        #expect(again.adopted == nil && again.deleted.isEmpty && again.kept.isEmpty)
    }
}
