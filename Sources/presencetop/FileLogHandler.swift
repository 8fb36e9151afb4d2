import Foundation
import Logging
import Synchronization

/// Logs to a file, one line per message: the dashboard owns the screen, so logs never reach it.
///
/// swift-log ships handlers for stdout and stderr only; this is the small file one it leaves to
/// applications.
struct FileLogHandler: LogHandler {
    private let label: String
    private let file: LogFile
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]

    init(label: String, file: LogFile) {
        self.label = label
        self.file = file
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let stamp = ISO8601DateFormatter.string(
            from: Date(), timeZone: .gmt, formatOptions: [.withInternetDateTime, .withFractionalSeconds])
        file.write("\(stamp) \(event.level) \(label): \(event.message)\n")
    }
}

/// An append-only log file shared by every logger.
final class LogFile: Sendable {
    private let handle: Mutex<FileHandle>

    /// Opens (or makes) the file at `path`, and its folder.
    init(path: String) throws {
        let url = URL(fileURLWithPath: path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        if !FileManager.default.fileExists(atPath: path) {
            guard FileManager.default.createFile(atPath: path, contents: nil) else {
                throw DashboardError("cannot create the log file \(path)")
            }
        }
        let handle = try FileHandle(forWritingTo: url)
        handle.seekToEndOfFile()
        self.handle = Mutex(handle)
    }

    func write(_ line: String) {
        handle.withLock { $0.write(Data(line.utf8)) }
    }
}
