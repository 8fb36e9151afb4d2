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
    public static func make(bytes: Int) -> SmallDisk? {
        let url = temporaryDirectory()
        guard run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(bytes)", "tmpfs", url.path]) else {
            try? FileManager.default.removeItem(at: url)
            return nil
        }
        return SmallDisk(url: url)
    }

    /// Unmounts it and removes the folder.
    public func remove() {
        _ = Self.run("/bin/umount", ["-l", url.path])
        try? FileManager.default.removeItem(at: url)
    }

    private static func run(_ executable: String, _ arguments: [String]) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}
