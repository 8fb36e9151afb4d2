import ArgumentParser
import Foundation
import RTDBCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The `presencetop serve --memory` child process the project benchmark watches, and the REST
/// writes that fill and change it (as the admin: the benchmark writes what apps' clients would).
struct ProjectServer: Sendable {
    /// The namespace written and watched.
    static let namespace = "project"
    /// The server's port.
    let port: Int

    /// Starts the server and waits until it accepts connections.
    static func start(_ report: BenchReport) async throws -> ProjectServer {
        ProjectServer(port: try await ServeProcess.start(report, named: "the server"))
    }

    /// Writes `users` users in `layout`, 2,000 to a request; the bytes of JSON written.
    func seed(_ layout: ProjectBenchmark.Shape, users: Int) async throws -> Int {
        var written = 0
        var random = SeededRandom(seed: 7)
        let now = UnixTime.now().millisecondsSince1970
        let filler = String(repeating: "Loves long walks, offline-first apps and well-kept queues. ", count: 14)
        for first in stride(from: 0, to: users, by: 2_000) {
            var batch = JSONValue.Members()
            for index in first..<min(users, first + 2_000) {
                let id = Self.userID(index)
                let online = random.next() % 10 < 3
                let seen = now - Int64(random.next() % 86_400_000)
                switch layout {
                case .connections:
                    var user: JSONValue.Members = [
                        "name": .string("User \(index)"), "email": .string("\(id)@example.com"),
                        "photoURL": .string("https://example.com/photos/\(id).jpg"), "bio": .string(filler),
                        "lastOnline": .int(seen),
                    ]
                    if online { user["connections"] = .object([CodeUnitString("-O\(id)conn01"): .bool(true)]) }
                    batch[CodeUnitString(id)] = .object(user)
                case .status:
                    batch[CodeUnitString(id)] = Self.status(online: online, at: seen)
                }
            }
            written += try await patch(root: layout, JSONValue.object(batch))
        }
        return written
    }

    /// A `status/<uid>` entry.
    static func status(online: Bool, at time: Int64) -> JSONValue {
        .object(["state": .string(online ? "online" : "offline"), "last_changed": .int(time)])
    }

    /// The id of user `index`.
    static func userID(_ index: Int) -> String { String(format: "user%07d", index) }

    /// Reads the whole layout root over REST, as plain JSON: the server's own time to produce and
    /// send what the watcher downloads (an anchor for the first list); the bytes and the seconds.
    func readRoot(_ layout: ProjectBenchmark.Shape) async throws -> (bytes: Int, time: Duration) {
        let root = layout == .status ? "status" : "users"
        guard let url = URL(string: "http://127.0.0.1:\(port)/\(root).json?ns=\(Self.namespace)&auth=owner") else {
            throw ValidationError("no URL for port \(port)")
        }
        let start = ContinuousClock.now
        let (data, _) = try await URLSession.shared.data(from: url)
        return (data.count, ContinuousClock.now - start)
    }

    /// Writes `body` as one multi-path update at the layout's root; the bytes sent.
    @discardableResult
    func patch(root layout: ProjectBenchmark.Shape, _ body: JSONValue) async throws -> Int {
        let root = layout == .status ? "status" : "users"
        let data = Data(body.jsonString.utf8)
        guard let url = URL(string: "http://127.0.0.1:\(port)/\(root).json?ns=\(Self.namespace)&auth=owner") else {
            throw ValidationError("no URL for port \(port)")
        }
        var request = URLRequest(url: url)
        request.httpMethod = "PATCH"
        request.httpBody = data
        let response: URLResponse
        do {
            (_, response) = try await URLSession.shared.data(for: request)
        } catch is URLError {
            // A kept-alive connection the server let go just as the request went out: no reply
            // at all. URLSession sends a PATCH once only; the same write again changes nothing.
            (_, response) = try await URLSession.shared.data(for: request)
        }
        guard (response as? HTTPURLResponse)?.statusCode == 200 else {
            throw ValidationError("a write to the server failed: \(response)")
        }
        return data.count
    }
}
