import Foundation
import Presence
import PresenceLab
import RTDBClient
import RTDBCore
import RTDBTestSupport
import Testing

/// Many presence changes that arrive together reach the timeline as one line each time: the
/// watcher's first list, and one multi-path update, against a real server on loopback.
@Suite(.timeLimit(.minutes(10))) struct PresenceBurstTests {
    @Test func aFirstLoadAndAMultiPathUpdateAreOneEventEach() async throws {
        let server = try await TestServer.start()
        let writer = Database(url: "\(server.baseURL)?ns=burst")
        defer { writer.close() }
        // 300 users, every third online, written before the watcher starts.
        var users: [AnyHashable: Any] = [:]
        for index in 0..<300 {
            let id = String(format: "user%03d", index)
            users["\(id)/lastOnline"] = 1_700_000_000_000 + index
            if index % 3 == 0 { users["\(id)/connections/-Nconn\(id)"] = true }
        }
        try await writer.reference(withPath: "users").updateChildValues(users)

        var options = SimulationOptions()
        options.server = .remote(ServerTarget(host: "127.0.0.1", port: server.port, namespace: "burst"))
        options.readOnly = true
        let events = Recorder<WatchEvent.Kind>()
        let simulation = try await Simulation.start(options) { events.record($0.kind) }
        let loaded = await events.wait { kinds in
            kinds.contains { if case .presenceBurst(let burst) = $0 { burst.isFirstLoad } else { false } }
        }
        #expect(loaded, "\(events.all)")
        let first = events.all.compactMap { kind -> PresenceBurst? in
            if case .presenceBurst(let burst) = kind { burst } else { nil }
        }
        #expect(first.count == 1)
        #expect(first.first?.listed == 300 && first.first?.online == 100)
        #expect("\(first.first.map(String.init(describing:)) ?? "")" == "300 users listed, 100 online")
        #expect(!events.all.contains { if case .presence = $0 { true } else { false } }, "no line per user")

        // 50 users come online in one update: one line, not 50.
        var update: [AnyHashable: Any] = [:]
        for index in stride(from: 1, to: 150, by: 3) {
            update[String(format: "user%03d/connections/-Nnew", index)] = true
        }
        try await writer.reference(withPath: "users").updateChildValues(update)
        let burst = await events.wait { kinds in
            kinds.contains { if case .presenceBurst(let burst) = $0 { !burst.isFirstLoad } else { false } }
        }
        #expect(burst, "\(events.all)")
        let second = events.all.compactMap { kind -> PresenceBurst? in
            if case .presenceBurst(let burst) = kind, !burst.isFirstLoad { burst } else { nil }
        }
        let counted = try #require(second.first)
        #expect(counted.usersChanged == 50 && counted.cameOnline == 50)
        #expect(counted.devicesConnected == 50 && counted.online == 150)
        #expect(!events.all.contains { if case .presence = $0 { true } else { false } }, "no line per user")
        // A change of one user is still its own line.
        try await writer.reference(withPath: "users/user002/connections/-Nlone").setValue(true)
        let single = await events.wait { kinds in
            kinds.contains { if case .presence(.userOnline(let user)) = $0 { user == "user002" } else { false } }
        }
        #expect(single, "\(events.all)")
        #expect(simulation.snapshot().users.filter(\.isOnline).count == 151)
        await simulation.stop()
        await server.stop()
    }
}
