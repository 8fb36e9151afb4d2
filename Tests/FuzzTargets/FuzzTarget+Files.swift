import Dashboard
import Foundation
import PresenceLab
import RTDBCore

extension FuzzTarget {
    /// A scenario file, read and checked as `--scenario` reads it, then described.
    static func scenario(_ bytes: [UInt8]) {
        guard let text = try? TextFile.text(of: bytes, path: "fuzz.toml"),
            let scenario = try? ScenarioFile(toml: text, file: "fuzz.toml")
        else { return }
        fuzzInvariant(scenario.steps.count <= 100_000, "steps are bounded by the input")
        for (earlier, later) in zip(scenario.steps, scenario.steps.dropFirst()) {
            fuzzInvariant(earlier.at <= later.at, "steps are in time order")
        }
        _ = scenario.duration
    }

    /// A recording, read as `presencetop replay` reads it, and its state at its ends and between.
    static func recording(_ bytes: [UInt8]) {
        guard let timeline = try? RecordingTimeline(bytes: bytes, file: "fuzz.jsonl") else { return }
        fuzzInvariant(timeline.start <= timeline.end, "a recording starts before it ends")
        let middle = UnixTime(
            millisecondsSince1970: timeline.start.millisecondsSince1970 / 2 + timeline.end.millisecondsSince1970 / 2)
        for time in [timeline.start, middle, timeline.end, RecordingTimeline.latest] {
            let (snapshot, events) = timeline.state(at: time, events: 20)
            fuzzInvariant(events.count <= 20, "at most the events asked for")
            _ = snapshot.users.count
        }
        _ = timeline.nextChange(after: timeline.start)
        _ = timeline.previousChange(before: timeline.end)
    }

    /// The dashboard's `config.toml`: its options as arguments and its key moves made.
    static func settings(_ bytes: [UInt8]) {
        guard let text = try? TextFile.text(of: bytes, path: "config.toml"),
            let config = try? DashboardConfig(
                toml: text, file: "config.toml",
                options: ["users": false, "link": false, "memory": true, "log": false],
                databaseOptions: ["credentials", "layout"])
        else { return }
        for argument in config.arguments + config.databaseArguments {
            fuzzInvariant(argument.hasPrefix("--"), "each option is one argument, its value joined to its name")
        }
        // Each [[database]] table is its url first, then its own options.
        fuzzInvariant(
            config.databaseArguments.filter { $0.hasPrefix("--url=") }.count == config.databases.count,
            "one --url per [[database]] table")
        _ = try? config.bindings(file: "config.toml")
    }
}
