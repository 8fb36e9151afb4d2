import Foundation
import WatchModel

/// Where themes come from: the built-in default and `NAME.toml` files in a list of folders.
public struct ThemeCatalog: Sendable {
    /// The folders searched, first match wins.
    public var directories: [URL]

    /// Makes a catalog over `directories`.
    public init(directories: [URL]) {
        self.directories = directories
    }

    /// The usual folders: `$XDG_CONFIG_HOME/presencetop/themes` (or `~/.config/…`), `./themes`,
    /// `share/presencetop/themes` beside the executable's folder (an installed copy), and the
    /// shipped `themes/` of the source tree it was built from, so that a build finds its themes
    /// wherever it runs.
    public static func standard(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        executable: URL = URL(fileURLWithPath: CommandLine.arguments.first ?? "."),
        sourceTree: URL = ThemeCatalog.sourceTreeThemes
    ) -> ThemeCatalog {
        let config =
            environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".config")
        return ThemeCatalog(directories: [
            config.appendingPathComponent("presencetop/themes"),
            URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent("themes"),
            executable.resolvingSymlinksInPath().deletingLastPathComponent()
                .appendingPathComponent("../share/presencetop/themes").standardized,
            sourceTree,
        ])
    }

    /// The `themes/` folder of the package this was built from (this file is
    /// `Sources/Dashboard/Style/ThemeCatalog.swift` in it).
    public static let sourceTreeThemes = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("themes")

    /// Every theme's name: `default` first, then the files' names, sorted, each once.
    public var names: [String] {
        var names: [String] = []
        for directory in directories {
            let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            names += files.filter { $0.hasSuffix(".toml") }.map { String($0.dropLast(5)) }
        }
        return ["default"] + Set(names).subtracting(["default"]).sorted()
    }

    /// The theme a `--theme` value names (a name from ``names`` or a file's path).
    ///
    /// - Returns: The theme, and the error that made it fall back to the built-in default, if any.
    public func load(_ nameOrPath: String) -> (theme: Theme, error: ThemeError?) {
        guard let file = locate(nameOrPath) else {
            if nameOrPath == "default" { return (.builtIn, nil) }
            let known = names.joined(separator: ", ")
            return (.builtIn, ThemeError(file: nameOrPath, problem: "no such theme (themes: \(known))"))
        }
        do {
            let text = try TextFile.text(at: file.path)
            return (try Theme(toml: text, file: file.path), nil)
        } catch let error as ThemeError {
            return (.builtIn, error)
        } catch let error as TextFile.Failure {
            return (.builtIn, ThemeError(file: file.path, line: error.line, problem: error.problem))
        } catch {
            return (.builtIn, ThemeError(file: file.path, problem: "cannot be read: \(error)"))
        }
    }

    private func locate(_ nameOrPath: String) -> URL? {
        if nameOrPath.contains("/") || nameOrPath.hasSuffix(".toml") {
            let url = URL(fileURLWithPath: nameOrPath)
            return FileManager.default.fileExists(atPath: url.path) ? url : nil
        }
        for directory in directories {
            let file = directory.appendingPathComponent(nameOrPath + ".toml")
            if FileManager.default.fileExists(atPath: file.path) { return file }
        }
        return nil
    }
}
