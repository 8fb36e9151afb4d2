import Foundation
import RTDBCore
import RTDBServer
import RTDBTestSupport
import RTDBWire
import Testing

extension DiskFaultTests {
    @Test func aMassDisconnectOnAFullDiskRunsOnceThereIsRoom() async throws {
        // Twenty sessions end together while the disk is full: their onDisconnect writes, one
        // batch (a merge), cannot be stored; the server keeps them as its own writes and stores
        // them once there is room, and a restart finds every one.
        let disk = try FaultyDisk(files: "demo.")
        let server = try await TestServer.start(dataDirectory: disk.folder)
        var clients: [WireTestClient] = []
        for index in 0..<20 {
            let client = WireTestClient(url: server.webSocketURL)
            _ = try await client.hello()
            let user = Path("users/u\(index)")
            #expect(try await client.call(.put(path: user, data: "here", hash: nil)).status == .ok)
            #expect(try await client.call(.onDisconnectPut(path: user, data: "gone")).status == .ok)
            clients.append(client)
        }
        disk.fill(after: 0)
        await withTaskGroup(of: Void.self) { group in
            for client in clients { group.addTask { await client.close() } }
        }
        #expect(try await eventually { disk.failures > 0 }, "the batch met the full disk")
        let whileFull = try await http("GET", "/users.json", port: server.port).json
        #expect(Self.states(whileFull) == ["here"], "nothing unstored is served: \(whileFull ?? "nil")")

        disk.fill(after: nil)
        #expect(
            try await until(server.server.metrics.changes) {
                let users = try await http("GET", "/users.json", port: server.port).json
                return users?.objectValue?.count == 20 && Self.states(users) == ["gone"]
            })
        await server.stop()
        let stored = try await Self.storedAfterARestart(disk)
        #expect(stored.objectValue?["users"]?.objectValue?.count == 20)
        #expect(Self.states(stored.objectValue?["users"]) == ["gone"], "\(stored)")
    }

    /// The distinct values of an object's members.
    private static func states(_ json: JSONValue?) -> Set<String> {
        Set(json?.objectValue?.values.compactMap(\.stringValue) ?? [])
    }
}
