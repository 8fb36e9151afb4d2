import ArgumentParser
import Foundation
import PresenceLab

/// `--scenario FILE`, shared by the dashboard and `presencetop demo`: a scenario file, read and
/// checked before anything starts.
struct ScenarioOption: ParsableArguments {
    @Option(help: "Play this scenario file (TOML; docs/scenarios.md): its population, timed steps and expectations.")
    var scenario: String?

    /// The file, read; a file that cannot be read or run stops the program (status 2) with its
    /// line and problem.
    func load() throws -> ScenarioFile? {
        guard let path = scenario else { return nil }
        let text: String
        do {
            text = try TextFile.text(at: path)
        } catch {
            FileHandle.standardError.write(Data("presencetop: the scenario file \(error)\n".utf8))
            throw ExitCode(2)
        }
        do {
            return try ScenarioFile(toml: text, file: path)
        } catch {
            FileHandle.standardError.write(Data("presencetop: \(error)\n".utf8))
            throw ExitCode(2)
        }
    }
}
