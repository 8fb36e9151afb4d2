import Foundation

/// A real file system that fills up: a tmpfs of a few KB mounted on a temporary folder, for
/// tests of what a full disk does (writes fail with ENOSPC, as on a full phone or server).
///
/// Mounting needs root, as this project's machines and CI run; elsewhere ``make(bytes:)`` gives
/// nil and the test skips (``required`` says whether a skip is a failure: under `CI=true`).
public final class SmallDisk: Sendable {
    /// The mounted folder.
    public let url: URL

    private init(url: URL) { self.url = url }

    /// Whether CI requires the tests that use it to run.
    public static var required: Bool { ProcessInfo.processInfo.environment["CI"] == "true" }

    /// Mounts a tmpfs of `bytes` (rounded up to pages by the kernel), or nil when this machine
    /// cannot mount one.
    public static func make(bytes: Int) async -> SmallDisk? {
        let url = temporaryDirectory()
        guard await run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(bytes)", "tmpfs", url.path]) else {
            try? FileManager.default.removeItem(at: url)
            return nil
        }
        return SmallDisk(url: url)
    }

    /// Runs `body` on a disk of `bytes`, unmounted afterwards whatever happens; nil (and `body`
    /// not run) when this machine cannot mount one.
    public static func using<T>(bytes: Int, _ body: (SmallDisk) async throws -> T) async throws -> T? {
        guard let disk = await make(bytes: bytes) else { return nil }
        do {
            let result = try await body(disk)
            await disk.remove()
            return result
        } catch {
            await disk.remove()
            throw error
        }
    }

    /// Unmounts it and removes the folder.
    public func remove() async {
        _ = await Self.run("/bin/umount", ["-l", url.path])
        try? FileManager.default.removeItem(at: url)
    }

    /// Runs a command under swift-subprocess (Foundation's `Process` can miss an exit when
    /// another test spawns at the same moment, and then waits forever; see ``ChildProcess``).
    private static func run(_ executable: String, _ arguments: [String]) async -> Bool {
        guard let process = try? await ChildProcess(URL(fileURLWithPath: executable), arguments) else { return false }
        return (try? await process.waitForExit(seconds: 30)) == 0
    }
}
