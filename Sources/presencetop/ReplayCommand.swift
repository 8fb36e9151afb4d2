import ArgumentParser
import CursesBackend
import Dashboard
import DashboardRuntime
import Foundation
import Logging
import PresenceLab
import RTDBCore

/// `presencetop replay FILE`: the dashboard on a recording, with a time cursor.
struct ReplayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Open the dashboard on a recording (presencetop --record FILE), with a time cursor.",
        discussion: """
            Every pane shows the state at the cursor: who was online, this device's connection and \
            its write queue. Space plays or pauses, ←/→ step to the previous or next change, [ and ] \
            move 10 s, Home and End go to the start and the end, - and + halve or double the speed. \
            q quits. A file that cannot be read is named with its line (status 2).
            """
    )

    @Argument(help: "The recording (JSON lines, docs/recording.md).")
    var file: String

    @Option(help: "Start at this many seconds into the recording.")
    var at: Double = 0

    @Option(help: "Playback speed (0.25 to 64).")
    var speed: Double = 1

    @Flag(help: "Start paused.")
    var paused = false

    @Option(help: "A theme's name (see themes/) or a theme file's path.")
    var theme = "default"

    /// The largest recording read: 1 GiB (about five million lines).
    static let largestRecording = 1 << 30

    func validate() throws {
        if !ReplaySource.speeds.contains(speed) {
            throw ValidationError("--speed must be from 0.25 to 64, not \(speed)")
        }
        _ = try SecondsRange.offset.option(at, "--at")
    }

    func run() async throws {
        let bytes: [UInt8]
        do {
            bytes = try TextFile.bytes(at: file, limit: Self.largestRecording)
        } catch {
            FileHandle.standardError.write(Data("presencetop: the recording \(error)\n".utf8))
            throw ExitCode(2)
        }
        try DashboardCommand.requireTerminal()
        var logger = Logger(label: "presencetop.replay")
        logger.logLevel = .critical
        let wake = try WakePipe()
        // Read while the dashboard runs: its keys act at once, however long the file.
        let source = ReplaySource(
            file: file, bytes: bytes, offset: try SecondsRange.offset.option(at, "--at"), speed: speed,
            playing: !paused, changed: { wake.signal() })
        let loop = DashboardLoop(
            source: source, inbox: ActionInbox(), wake: wake, themeName: theme, catalog: .standard(), logger: logger,
            afterFrame: FrameHook.afterFrame,
            makeTerminal: { CursesTerminal(theme: $0, environment: ProcessInfo.processInfo.environment) })
        let status = await loop.run()
        source.abandon()
        if let failure = source.failure {
            FileHandle.standardError.write(Data("presencetop: \(failure)\n".utf8))
        }
        if status != 0 { throw ExitCode(status) }
    }
}
