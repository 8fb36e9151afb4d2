import ArgumentParser
import Dashboard
import Foundation
import LinkSim
import PresenceLab
import RTDBCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `presencetop-bench project`: the dashboard watching a real app's size, read-only, as it
/// would watch your project: 100,000 users of about 1 KB each (a profile beside presence) under
/// the presence root of a `presencetop serve` in its own process.
struct ProjectBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "project",
        abstract: "The dashboard on 100,000 users × ~1 KB: first screen, bytes downloaded, memory, frame time."
    )

    @Option(help: "Users under the presence root.")
    var users = 100_000

    @Option(help: "Frames timed once the tree is in.")
    var frames = 100

    @OptionGroup var options: BenchOptions

    func run() async throws {
        try await BenchReport.run("project", options: options) { try await measure($0) }
    }

    private func measure(_ report: BenchReport) async throws {
        let port = try LoopbackPort.free()
        let server = Process()
        server.executableURL = try BenchSupport.presencetop()
        server.arguments = ["serve", "--memory", "--port", "\(port)"]
        server.standardOutput = FileHandle.nullDevice
        server.standardError = FileHandle.nullDevice
        try server.run()
        report.onExit("the server") {
            server.terminate()
            server.waitUntilExit()
        }
        while !LoopbackPort.accepts(port) {
            guard server.isRunning else { throw ValidationError("the server exited before it answered") }
            try await Task.sleep(for: .milliseconds(50))
        }
        let stored = try await seed(port: port)
        report.record("users", users)
        report.record("stored_bytes", stored)
        report.say(String(format: "%d users stored, %.1f MB of JSON", users, Double(stored) / 1e6))

        // Watched through a perfect link, which counts what the watcher downloads.
        let link = try LinkProxy(upstreamPort: port, conditions: .perfect, seed: 1)
        let linkPort = try await link.start()
        var simulation = SimulationOptions()
        simulation.server = .remote(ServerTarget(host: "127.0.0.1", port: linkPort, namespace: "project"))
        simulation.readOnly = true
        let baseline = BenchSupport.residentBytes(of: getpid())
        let start = ContinuousClock.now
        let running = try await Simulation.start(simulation)
        var snapshot = running.snapshot()
        while snapshot.users.count < users {
            try await Task.sleep(for: .milliseconds(20))
            snapshot = running.snapshot()
        }
        let firstScreen = ContinuousClock.now - start
        let memory = BenchSupport.residentBytes(of: getpid()) - baseline
        let downloaded = link.stats.bytesDown
        report.record("first_screen_ms", firstScreen.inMilliseconds)
        report.record("downloaded_bytes", downloaded)
        report.record("resident_growth_bytes", memory)
        report.say(
            String(
                format: "first screen after %.2f s; downloaded %.1f MB; memory +%.0f MB", firstScreen.inSeconds,
                Double(downloaded) / 1e6, Double(memory) / 1e6))

        var state = DashboardState(width: 160, height: 48)
        let renderer = DashboardRenderer()
        var times: [Double] = []
        for index in 0..<frames {
            var next = snapshot
            next.takenAt += .seconds(index)
            let begin = DispatchTime.now().uptimeNanoseconds
            _ = DashboardReducer.reduce(&state, .snapshot(next))
            _ = renderer.render(state)
            times.append(Double(DispatchTime.now().uptimeNanoseconds - begin) / 1e6)
        }
        report.record("frame_p50_ms", BenchSupport.percentile(times, 50))
        report.record("frame_p99_ms", BenchSupport.percentile(times, 99))
        report.say(
            String(
                format: "a frame (snapshot in, 160×48 out): p50 %.2f ms  p99 %.2f ms  (target: p50 ≤ 5 ms)",
                BenchSupport.percentile(times, 50), BenchSupport.percentile(times, 99)))
        await running.stop()
        await link.stop()
    }

    /// Writes the users as admin, 2,000 to a request; the bytes of JSON written.
    private func seed(port: Int) async throws -> Int {
        var written = 0
        var random = SeededRandom(seed: 7)
        let now = UnixTime.now().millisecondsSince1970
        let filler = String(repeating: "Loves long walks, offline-first apps and well-kept queues. ", count: 14)
        for first in stride(from: 0, to: users, by: 2_000) {
            var batch = JSONValue.Members()
            for index in first..<min(users, first + 2_000) {
                let id = String(format: "user%06d", index)
                var user: JSONValue.Members = [
                    "name": .string("User \(index)"), "email": .string("\(id)@example.com"),
                    "photoURL": .string("https://example.com/photos/\(id).jpg"), "bio": .string(filler),
                    "lastOnline": .int(now - Int64(random.next() % 86_400_000)),
                ]
                if random.next() % 10 < 3 {
                    user["connections"] = .object([CodeUnitString("-O\(id)conn01"): .bool(true)])
                }
                batch[CodeUnitString(id)] = .object(user)
            }
            let body = Data(JSONValue.object(batch).jsonString.utf8)
            written += body.count
            guard let url = URL(string: "http://127.0.0.1:\(port)/users.json?ns=project&auth=owner") else {
                throw ValidationError("no URL for port \(port)")
            }
            var request = URLRequest(url: url)
            request.httpMethod = "PATCH"
            request.httpBody = body
            let (_, response) = try await URLSession.shared.data(for: request)
            guard (response as? HTTPURLResponse)?.statusCode == 200 else {
                throw ValidationError("seeding users failed: \(response)")
            }
        }
        return written
    }
}
