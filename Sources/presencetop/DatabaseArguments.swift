import ArgumentParser
import Foundation
import PresenceLab
import RTDBClient
import RTDBCore

/// The databases after the first on a dashboard's command line: each later `--url` with the
/// sign-in and layout options that follow it, up to the next `--url` (`--url A --credentials
/// a.json --url B --id-token-file b.txt`: A signs in with a.json, B with b.txt).
struct DatabaseArguments {
    /// The options that belong to the `--url` before them (the rest are the dashboard's).
    static let scoped: Set<String> = [
        "--credentials", "--as-uid", "--id-token-file", "--email", "--password-file", "--api-key",
        "--database-secret-file", "--layout", "--presence-path", "--connections-child", "--last-online-child",
        "--state-child", "--online-value", "--changed-child",
    ]

    /// The hidden option each later database travels in to ``DashboardCommand``: its arguments
    /// as a JSON array (a settings file's value may hold any character, NUL too).
    static let carrier = "--watch-database"

    /// `arguments` with every database after the first folded into one ``carrier`` option each.
    static func fold(_ arguments: [String]) -> [String] {
        var main: [String] = []
        var databases: [[String]] = []
        var urls = 0
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--" {
                main += arguments[index...]
                break
            }
            let name = argument.split(separator: "=", maxSplits: 1).first.map(String.init) ?? argument
            let inline = argument.contains("=")
            let takesValue = name == "--url" || scoped.contains(name)
            var option = [argument]
            if takesValue, !inline, index + 1 < arguments.count {
                option.append(arguments[index + 1])
                index += 1
            }
            index += 1
            if name == "--url" {
                urls += 1
                if urls > 1 {
                    databases.append(option)
                    continue
                }
            } else if takesValue, urls > 1, !databases.isEmpty {
                databases[databases.count - 1] += option
                continue
            }
            main += option
        }
        // One argument each (`--watch-database=[…]`): joined to its name, it is read as a value.
        return main + databases.map { "\(carrier)=\(JSONValue.array($0.map(JSONValue.string)).jsonString)" }
    }
}

/// One database watched beside the first: its URL, sign-in and layout.
struct WatchedDatabaseOptions: ParsableArguments {
    @Option var url: String
    @OptionGroup var credentials: CredentialOptions
    @OptionGroup var layout: LayoutOptions

    /// The database a ``DatabaseArguments/carrier`` value describes.
    ///
    /// - Throws: `ValidationError` naming the `--url` and the problem.
    static func watched(_ carried: String, transport: any Transport) throws -> WatchedDatabase {
        let decoded = try? JSONParser.parse(carried)
        guard case .array(let values)? = decoded else { throw ValidationError("--watch-database: not a JSON array") }
        let arguments = values.compactMap(\.stringValue)
        let url = arguments.first.map { $0.hasPrefix("--url=") ? String($0.dropFirst(6)) : "" } ?? ""
        let named = url.isEmpty ? arguments.dropFirst().first ?? "?" : url
        let options: WatchedDatabaseOptions
        do {
            options = try parse(arguments)
        } catch {
            throw ValidationError("--url \(named): \(message(for: error))")
        }
        let target = try SimulationFlags.target(url: options.url)
        var database = WatchedDatabase(
            target: target, presencePath: options.layout.root, layout: options.layout.presenceLayout,
            transport: transport)
        do {
            if let (provider, identity) = try options.credentials.provider(for: target) {
                (database.credentials, database.identity) = (provider, identity)
            }
        } catch {
            throw ValidationError("--url \(named): \(error)")
        }
        return database
    }
}
