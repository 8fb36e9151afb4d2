import Foundation
import Logging
import Synchronization

/// The last lines a run logged, kept in memory so that a test that missed a step can show what
/// the engine was doing (a miss seen only in CI's parallel runs is otherwise a screen and a guess).
final class RecentLog: Sendable {
    private let lines = Mutex<[String]>([])
    private let keeping: Int
    fileprivate let started = ContinuousClock.now

    /// Keeps the last `keeping` lines.
    init(keeping: Int = 400) { self.keeping = keeping }

    /// A logger at `level` whose lines come here.
    func logger(label: String, level: Logger.Level) -> Logger {
        var logger = Logger(label: label) { _ in Handler(log: self) }
        logger.logLevel = level
        return logger
    }

    /// The lines kept, oldest first.
    var text: String { lines.withLock { $0.joined(separator: "\n") } }

    fileprivate func append(_ line: String) {
        lines.withLock { lines in
            lines.append(line)
            if lines.count > keeping { lines.removeFirst(lines.count - keeping) }
        }
    }

    private struct Handler: LogHandler {
        let log: RecentLog
        var logLevel: Logger.Level = .trace
        var metadata: Logger.Metadata = [:]

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let extra = metadata.merging(event.metadata ?? [:]) { _, new in new }
            let suffix = extra.isEmpty ? "" : " \(extra.map { "\($0)=\($1)" }.sorted().joined(separator: " "))"
            let at = (ContinuousClock.now - log.started).formatted(
                .units(allowed: [.seconds], fractionalPart: .show(length: 3)))
            log.append("\(at) \(event.level) \(event.source): \(event.message)\(suffix)")
        }
    }
}
