import ArgumentParser
import Foundation
import PresenceLab

/// The `presencetop` command line: a terminal dashboard for realtime presence and offline sync.
@main
struct Presencetop: AsyncParsableCommand {
    static let version = "0.1.0"

    static let configuration = CommandConfiguration(
        commandName: "presencetop",
        abstract: "Watch realtime presence and offline sync at work.",
        discussion: """
            presencetop runs a Firebase Realtime Database compatible engine: a server speaking \
            wire protocol v5 and REST, and a client engine with offline persistence.
            """,
        version: version,
        subcommands: [
            DashboardCommand.self, ServeCommand.self, DemoCommand.self, ChaosCommand.self, ProxyCommand.self,
            ReplayCommand.self, WatchCommand.self,
        ],
        defaultSubcommand: DashboardCommand.self
    )

    /// Runs the command line; `presencetop --help` also lists the dashboard's options, since the
    /// dashboard is what `presencetop` alone opens.
    static func main() async {
        // A first list of a million users leaves its working blocks behind unless they are mapped
        // apart (``HeapPolicy``).
        HeapPolicy.mapLargeBlocksApart()
        var arguments = Array(CommandLine.arguments.dropFirst())
        if arguments == ["--help"] || arguments == ["-h"] {
            print(helpMessage())
            print("\nTHE DASHBOARD (what presencetop alone opens):\n")
            print(helpMessage(for: DashboardCommand.self))
            return
        }
        // The dashboard's settings file gives defaults (to `watch` too, less the theme); the
        // command line's own options win.
        let command = arguments.first.map { $0.hasPrefix("-") ? "dashboard" : $0 } ?? "dashboard"
        if command == "dashboard" || command == "watch",
            !arguments.contains(where: { ["--help", "-h", "--version"].contains($0) })
        {
            let rest = arguments.first == command ? Array(arguments.dropFirst()) : arguments
            let namesADatabase = rest.contains { $0 == "--url" || $0.hasPrefix("--url=") }
            do {
                // Each `--url` after the first, with its own sign-in and layout, is one more database.
                let configured = try DashboardCommand.configuredArguments(
                    commandLineNamesADatabase: namesADatabase, withTheme: command == "dashboard")
                arguments = [command] + DatabaseArguments.fold(configured + rest)
            } catch {
                FileHandle.standardError.write(Data("presencetop: \(error)\n".utf8))
                Foundation.exit(2)
            }
            // A value the settings file gave that the command line refuses is the file's problem:
            // say so with its line, not as if it had been typed.
            do {
                _ = try parseAsRoot(arguments)
            } catch {
                if let refused = DashboardCommand.settingsError(for: message(for: error), commandLine: rest) {
                    FileHandle.standardError.write(Data("presencetop: \(refused)\n".utf8))
                    Foundation.exit(2)
                }
            }
        }
        await main(arguments)
    }
}
