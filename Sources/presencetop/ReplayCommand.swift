import ArgumentParser
import Dashboard
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

    func validate() throws {
        if !ReplaySource.speeds.contains(speed) {
            throw ValidationError("--speed must be from 0.25 to 64, not \(speed)")
        }
        if !(at >= 0) { throw ValidationError("--at must be 0 or a positive number of seconds") }
    }

    func run() async throws {
        let timeline: RecordingTimeline
        do {
            timeline = try RecordingTimeline(text: try String(contentsOfFile: file, encoding: .utf8), file: file)
        } catch let error as RecordingTimeline.Failure {
            FileHandle.standardError.write(Data("presencetop: \(error)\n".utf8))
            throw ExitCode(2)
        } catch {
            FileHandle.standardError.write(
                Data("presencetop: cannot read the recording \(file): \(error.localizedDescription)\n".utf8))
            throw ExitCode(2)
        }
        try DashboardCommand.requireTerminal()
        var logger = Logger(label: "presencetop.replay")
        logger.logLevel = .critical
        let source = ReplaySource(
            timeline: timeline, at: timeline.start + .milliseconds(Int64(at * 1000)), speed: speed, playing: !paused)
        let loop = DashboardLoop(
            source: source, inbox: ActionInbox(), wake: try WakePipe(), themeName: theme, catalog: .standard(),
            logger: logger)
        let status = await loop.run()
        if status != 0 { throw ExitCode(status) }
    }
}
