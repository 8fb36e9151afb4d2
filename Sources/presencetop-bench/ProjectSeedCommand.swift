import ArgumentParser
import ChildProcesses
import Foundation

/// `presencetop-bench project-seed` (hidden): the project benchmark's writes and its REST read.
///
/// They run in a process of their own, so that the memory they took and gave back is not in the
/// benchmark's process when it measures the dashboard's (glibc keeps freed heap, and Foundation
/// lets some of it go only later). Prints one JSON object.
struct ProjectSeedCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "project-seed", abstract: "Fill the project benchmark's server (used by `project`).",
        shouldDisplay: false)

    @Option(help: "The server's port.")
    var port: Int

    @Option(help: "The presence layout.")
    var layout: ProjectBenchmark.Shape

    @Option(help: "Users written.")
    var users: Int

    func run() async throws {
        let server = ProjectServer(port: port)
        let stored = try await server.seed(layout, users: users)
        let read = try await server.readRoot(layout)
        let result: [String: Int] = [
            "stored_bytes": stored, "read_bytes": read.bytes, "read_ms": Int(read.time.inMilliseconds),
        ]
        let data = try JSONSerialization.data(withJSONObject: result, options: [.sortedKeys])
        print(String(decoding: data, as: UTF8.self))
    }

    /// Runs it as a child of this benchmark and reads its answer: the bytes written, and the
    /// bytes and time of the whole root read over REST.
    static func run(port: Int, layout: ProjectBenchmark.Shape, users: Int) async throws -> (
        stored: Int, readBytes: Int, readTime: Duration
    ) {
        let child = try await ChildProcess(
            URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath(),
            ["project-seed", "--port", "\(port)", "--layout", layout.rawValue, "--users", "\(users)"])
        let status = await child.exitStatus(within: .seconds(3_600))
        if status == nil { child.signal(SIGKILL) }
        guard status == 0,
            let answer = try? JSONSerialization.jsonObject(with: Data(child.standardOutput.utf8)) as? [String: Int],
            let stored = answer["stored_bytes"], let readBytes = answer["read_bytes"], let readMS = answer["read_ms"]
        else {
            throw ValidationError(
                "filling the server failed (exit \(status.map(String.init) ?? "none within an hour")): \(child.standardError.suffix(500))"
            )
        }
        return (stored, readBytes, .milliseconds(readMS))
    }
}
