import Foundation
import Testing

/// The architecture's one-way rule, checked on the sources: which project modules each layer may
/// import, and which layers stay pure (values only, no engine, server, I/O or network library).
///
/// SwiftPM on Linux lets a target import a module it does not declare once that module is built,
/// so Package.swift alone does not hold the line; this does.
@Suite struct DependencyRuleTests {
    /// The project modules each layer may import; a layer not listed here is not checked.
    static let allowed: [String: Set<String>] = [
        "RTDBCore": [],
        "RTDBWire": ["RTDBCore"],
        "RTDBRules": ["RTDBCore"],
        "RawSQLite": [],
        "RTDBServer": ["RTDBCore", "RTDBWire", "RTDBRules", "RawSQLite"],
        "RTDBClient": ["RTDBCore", "RTDBWire", "RawSQLite"],
        "LinkSim": ["RTDBCore"],
        "DiskFaults": ["CSQLiteFaults"],
        "ChildProcesses": ["RTDBCore"],
        "PresenceModel": ["RTDBCore"],
        "Presence": ["PresenceModel", "RTDBCore", "RTDBClient"],
        "WatchModel": ["PresenceModel", "RTDBCore"],
        "Dashboard": ["WatchModel", "PresenceModel", "RTDBCore"],
        "DashboardRuntime": ["Dashboard", "WatchModel", "PresenceModel", "RTDBCore"],
        "LabDashboard": ["Dashboard", "DashboardRuntime", "PresenceLab", "RTDBCore"],
        "CursesBackend": ["CNcursesw", "Dashboard", "RTDBCore"],
    ]

    /// The layers that hold values only, and the libraries they may use besides project modules
    /// (WatchModel's `TextFile` reads a bounded text file with the C library: themes, scenarios and
    /// settings are read through it).
    static let pure: [String: Set<String>] = [
        "PresenceModel": [],
        "WatchModel": ["Foundation", "TOMLKit", "Glibc", "Darwin"],
        "Dashboard": ["Foundation", "TOMLKit"],
    ]

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Every project module: a folder under Sources/ (the module names that differ from their
    /// folder's are executables, which nothing imports).
    static let projectModules: Set<String> = Set(
        (try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("Sources").path)) ?? [])

    @Test(arguments: allowed.keys.sorted())
    func aLayerImportsOnlyTheLayersBelowIt(_ layer: String) throws {
        let imports = try Self.imports(of: layer)
        #expect(!imports.isEmpty || layer == "RTDBCore", "no Swift files read under Sources/\(layer)")
        let allowed = Self.allowed[layer] ?? []
        for (module, files) in imports.sorted(by: { $0.key < $1.key })
        where Self.projectModules.contains(module) && !allowed.contains(module) {
            Issue.record(
                "\(layer) imports \(module) (in \(files.sorted().joined(separator: ", "))); it may import \(allowed.sorted())"
            )
        }
    }

    @Test(arguments: pure.keys.sorted())
    func aPureLayerUsesNoEngineServerOrNetworkLibrary(_ layer: String) throws {
        let permitted = (Self.pure[layer] ?? []).union(Self.allowed[layer] ?? [])
        for (module, files) in try Self.imports(of: layer).sorted(by: { $0.key < $1.key })
        where !permitted.contains(module) {
            Issue.record(
                "\(layer) is values only, yet imports \(module) (in \(files.sorted().joined(separator: ", ")))")
        }
    }

    /// The client engine has one door: outside `Repo/`, code calls Repo's verbs only, never its
    /// queue (`repo.engineQueue`) or one of its parts (`repo.connection.…`, `repo.pendingWrites.…`).
    @Test func theClientEntersItsEngineThroughRepoVerbsOnly() throws {
        let folder = Self.root.appendingPathComponent("Sources/RTDBClient")
        let walker = try #require(FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil))
        var read = 0
        for case let file as URL in walker where file.pathExtension == "swift" {
            guard !file.path.contains("/Sources/RTDBClient/Repo/") else { continue }
            read += 1
            let lines = try String(contentsOf: file, encoding: .utf8).split(
                separator: "\n", omittingEmptySubsequences: false)
            for (number, line) in lines.enumerated() where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                if let reach = Self.reachIntoRepo(String(line)) {
                    Issue.record("\(file.lastPathComponent):\(number + 1): \(reach) — call a verb of Repo+Door.swift")
                }
            }
        }
        #expect(read > 10, "the API's files were read")
    }

    @Test func theDoorCheckSeesAReach() {
        #expect(
            Self.reachIntoRepo("        repo.engineQueue.async { repo.connection.resume() }") == "repo.engineQueue")
        #expect(Self.reachIntoRepo("  database.repo.pendingWrites.snapshot") == "repo.pendingWrites.snapshot")
        #expect(Self.reachIntoRepo("        repo.resume()") == nil)
        #expect(Self.reachIntoRepo("        database.repo.set(path, value: value)") == nil)
    }

    /// The first reach past Repo's verbs in a line of code, or nil.
    static func reachIntoRepo(_ line: String) -> String? {
        // Simple word boundaries: by Unicode's rules `repo.engineQueue` is one word, with none inside.
        let queue = /\brepo\.engineQueue\b/.wordBoundaryKind(.simple)
        let part = /\brepo\.[A-Za-z_]+\.[A-Za-z_]+/.wordBoundaryKind(.simple)
        if let found = line.firstMatch(of: queue) { return String(found.output) }
        return line.firstMatch(of: part).map { String($0.output) }
    }

    @Test func theCheckSeesAForbiddenImport() {
        let found = Self.importedModules(
            in:
                "import Foundation\n@preconcurrency import PresenceLab\n  import struct RTDBServer.RTDBServer\n// import RTDBClient\n"
        )
        #expect(found == ["Foundation", "PresenceLab", "RTDBServer"])
    }

    /// The modules `layer`'s sources import, each with the files that import it.
    static func imports(of layer: String) throws -> [String: Set<String>] {
        let folder = root.appendingPathComponent("Sources/\(layer)")
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else {
            return [:]
        }
        var found: [String: Set<String>] = [:]
        for case let file as URL in walker where file.pathExtension == "swift" {
            let text = try String(contentsOf: file, encoding: .utf8)
            for module in importedModules(in: text) {
                found[module, default: []].insert(file.lastPathComponent)
            }
        }
        return found
    }

    /// The modules a Swift file imports (attributes, `import struct M.T` and submodules read as
    /// their top module; commented lines are not imports).
    static func importedModules(in text: String) -> Set<String> {
        var modules: Set<String> = []
        for line in text.split(separator: "\n") {
            var words = line.split(separator: " ").map(String.init)
            while let first = words.first, first.hasPrefix("@") { words.removeFirst() }
            guard words.first == "import", words.count >= 2 else { continue }
            let kinds: Set<String> = ["struct", "class", "enum", "protocol", "func", "var", "let", "typealias"]
            let path = kinds.contains(words[1]) && words.count >= 3 ? words[2] : words[1]
            modules.insert(String(path.split(separator: ".").first ?? ""))
        }
        return modules
    }
}
