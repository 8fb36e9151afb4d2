import Crypto
import Foundation
import Logging
import RTDBClient

/// This device's SQLite file (its cache and offline write queue): named after the setup, not the
/// port, so that writes queued in one run are sent in the next.
///
/// The embedded server listens on a new port every run and its link on another, so neither names
/// the file. The embedded server's data directory does (the same data, the same queue); a remote
/// server's host, port and namespace do. Versions before this one named the embedded setup's file
/// after the port (`dashboard_127.0.0.1_<port>_<namespace>.sqlite`), one new file per run:
/// ``adoptEarlierFiles(in:namespace:as:logger:)`` picks up the newest of those that still holds
/// writes and deletes those that hold none.
public enum ThisDeviceStateFile {
    /// The file's name (without `.sqlite`) for a setup.
    public static func name(server: SimulationOptions.Server, target: ServerTarget) -> String {
        switch server {
        case .embedded(let dataDirectory?):
            let path = dataDirectory.standardizedFileURL.path
            let digest = SHA256.hash(data: Data(path.utf8)).prefix(6).map { String(format: "%02x", $0) }.joined()
            return "dashboard_embedded_\(digest)_\(target.namespace)"
        case .embedded(nil):
            return "dashboard_embedded_memory_\(target.namespace)"
        case .remote(let remote):
            return "dashboard_\(remote.host)_\(remote.port)_\(remote.namespace)"
        case .simulated:
            return "dashboard_simulated_\(target.namespace)"
        }
    }

    /// What ``adoptEarlierFiles(in:namespace:as:logger:)`` did.
    public struct Adoption: Sendable, Equatable {
        /// The earlier file now used under the new name, if any.
        public var adopted: String?
        /// Earlier files deleted because they held no queued write (only a cache).
        public var deleted: [String] = []
        /// Earlier files left in place because they hold writes and another was adopted.
        public var kept: [String] = []
    }

    /// Picks up the files an earlier version left for the embedded setup in `directory`, when the
    /// file `name` does not exist yet.
    ///
    /// The newest one holding queued writes is renamed to `name` (with its WAL and shared-memory
    /// files); those holding none are deleted; any other holding writes is left and logged, since
    /// it cannot be told from a `--url` run against a local server.
    @discardableResult
    public static func adoptEarlierFiles(
        in directory: URL, namespace: String, as name: String, logger: Logger
    ) -> Adoption {
        var adoption = Adoption()
        let fileManager = FileManager.default
        let target = directory.appendingPathComponent(name + ".sqlite")
        guard !fileManager.fileExists(atPath: target.path),
            let entries = try? fileManager.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
        else { return adoption }
        // When each was last written (its WAL holds the newest commits), read before opening any:
        // opening one touches it.
        let earlier = entries.filter { isEarlierName($0.lastPathComponent, namespace: namespace) }
        let modified = earlier.map { file in
            ["", "-wal"].compactMap { suffix in
                try? fileManager.attributesOfItem(atPath: file.path + suffix)[.modificationDate] as? Date
            }.max() ?? .distantPast
        }
        var candidates: [(file: URL, modified: Date, writes: Int)] = []
        for (file, modified) in zip(earlier, modified) {
            guard let writes = try? Database.queuedWriteCount(inPersistenceFile: file) else { continue }
            candidates.append((file, modified, writes))
        }
        let newest = candidates.filter { $0.writes > 0 }.max { $0.modified < $1.modified }
        for candidate in candidates {
            let fileName = candidate.file.lastPathComponent
            if candidate.file == newest?.file {
                do {
                    for suffix in ["", "-wal", "-shm"] {
                        let from = URL(fileURLWithPath: candidate.file.path + suffix)
                        guard fileManager.fileExists(atPath: from.path) else { continue }
                        try fileManager.moveItem(at: from, to: URL(fileURLWithPath: target.path + suffix))
                    }
                    adoption.adopted = fileName
                    logger.notice(
                        "picked up \(candidate.writes) queued writes from \(fileName) (an earlier version's file)")
                } catch {
                    logger.error("could not pick up \(fileName): \(error)")
                    adoption.kept.append(fileName)
                }
            } else if candidate.writes == 0 {
                for suffix in ["", "-wal", "-shm"] { try? fileManager.removeItem(atPath: candidate.file.path + suffix) }
                adoption.deleted.append(fileName)
            } else {
                logger.notice("left \(fileName) in place: it holds \(candidate.writes) queued writes of an earlier run")
                adoption.kept.append(fileName)
            }
        }
        return adoption
    }

    /// Whether `fileName` is `dashboard_127.0.0.1_<port>_<namespace>.sqlite`, as earlier versions
    /// named the embedded setup's file (the namespace as `Database` spells it in a file name).
    static func isEarlierName(_ fileName: String, namespace: String) -> Bool {
        let prefix = "dashboard_127.0.0.1_"
        let suffix = "_" + namespace.map { $0.isLetter || $0.isNumber || $0 == "." ? $0 : "_" } + ".sqlite"
        guard fileName.hasPrefix(prefix), fileName.hasSuffix(suffix) else { return false }
        let port = fileName.dropFirst(prefix.count).dropLast(suffix.count)
        return !port.isEmpty && port.allSatisfy(\.isASCII) && port.allSatisfy(\.isNumber)
    }
}
