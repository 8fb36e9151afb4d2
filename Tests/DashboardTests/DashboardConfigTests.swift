import Dashboard
import Testing

/// The settings file: its theme, its options as arguments, and mistakes named by line.
struct DashboardConfigTests {
    static let options: [String: Bool] = ["users": false, "link": false, "memory": true, "churn": false]

    @Test func optionsBecomeArgumentsTheCommandLineCanOverride() throws {
        let config = try DashboardConfig(
            toml: """
                theme = "mono"

                [options]
                users = 12
                link = "mobile"
                memory = true
                churn = 0.5
                """, file: "config.toml", options: Self.options)
        #expect(config.theme == "mono")
        // Each option as it would be typed, its value joined to its name.
        #expect(Set(config.arguments) == ["--users=12", "--link=mobile", "--memory", "--churn=0.5"])
        #expect(config.options.first { $0.name == "churn" }?.line == 7)
    }

    @Test func mistakesAreNamedWithTheirLine() {
        let cases: [(String, String)] = [
            ("[options]\nusrs = 3\n", "config.toml:2: unknown option 'usrs'"),
            ("[options]\nmemory = \"yes\"\n", "config.toml:2: 'memory' must be true or false"),
            ("theme = 3\n", "config.toml:1: 'theme' must be a string"),
            ("colour = 1\n", "config.toml:1: unknown key 'colour'"),
            ("theme = \n", "config.toml:1:"),
        ]
        for (text, message) in cases {
            #expect(throws: ConfigError.self) {
                try DashboardConfig(toml: text, file: "config.toml", options: Self.options)
            }
            do {
                _ = try DashboardConfig(toml: text, file: "config.toml", options: Self.options)
            } catch {
                #expect(error.description.hasPrefix(message), "\(error.description)")
            }
        }
    }

    @Test func theThemeIsRememberedAndTheRestKept() {
        #expect(DashboardConfig.settingTheme("ansi", in: "") == "theme = \"ansi\"\n")
        let text = "# mine\ntheme = \"mono\"\n\n[options]\nusers = 3\n"
        #expect(
            DashboardConfig.settingTheme("light", in: text) == "# mine\ntheme = \"light\"\n\n[options]\nusers = 3\n")
        let noTheme = "[options]\ntheme = \"x\"\n"
        #expect(DashboardConfig.settingTheme("light", in: noTheme) == "theme = \"light\"\n[options]\ntheme = \"x\"\n")
    }

    /// Was: key bindings could not be changed (lazygit's users ask for it first).
    @Test func keysCanBeMovedAndMistakesAreNamed() throws {
        let config = try DashboardConfig(
            toml: "[keys]\nn = \"N\"\nTab = \"Space\"\n", file: "config.toml", options: Self.options)
        let bindings = try config.bindings(file: "config.toml")
        #expect(KeyMap.command(for: .character("N"), in: bindings) == .effect(.toggleNetwork))
        #expect(KeyMap.command(for: .character("n"), in: bindings) == nil)
        #expect(KeyMap.command(for: .character(" "), in: bindings) == .focusNext)
        #expect(bindings.contains { $0.label == "N" && $0.hint == "network" }, "the footer and help name the new key")
        var state = DashboardState(width: 120, height: 40)
        state.preferences.bindings = bindings
        #expect(DashboardReducer.reduce(&state, .key(.character("N"))) == [.toggleNetwork])
        #expect(DashboardReducer.reduce(&state, .key(.character("n"))).isEmpty)

        let mistakes: [(String, String)] = [
            ("[keys]\nn = \"b\"\n", "config.toml:2: key 'b' already does"),
            ("[keys]\nZ = \"N\"\n", "config.toml:2: key 'Z' is not bound to anything"),
            ("[keys]\nn = \"Nope\"\n", "config.toml:2: key 'Nope' is not a key"),
            ("[keys]\nn = 3\n", "config.toml:2: 'n' must name a key"),
            ("[keys]\n\"replay \" = \"x\"\n", "config.toml:2: key 'replay ' is not a key"),
            ("[keys]\n\"replay Nope\" = \"x\"\n", "config.toml:2: key 'replay Nope' is not a key"),
            ("[keys]\n\"replay n\" = \"x\"\n", "config.toml:2: key 'replay n' is not bound to anything"),
            ("[keys]\n\"replay -\" = \"]\"\n", "config.toml:2: key ']' already does 'replay: 10 s on'"),
        ]
        for (text, message) in mistakes {
            do {
                _ = try DashboardConfig(toml: text, file: "config.toml", options: Self.options).bindings(
                    file: "config.toml")
                Issue.record("accepted: \(text)")
            } catch {
                #expect(error.description.hasPrefix(message), "\(error.description)")
            }
        }
    }

    /// A value that begins with `--` stays the option's value: it is never read as an option.
    @Test func aValueThatLooksLikeAnOptionStaysAValue() throws {
        let config = try DashboardConfig(
            toml: "[options]\nlink = \"--memory\"\n", file: "config.toml", options: Self.options)
        #expect(config.arguments == ["--link=--memory"])
    }

    /// `[keys]` with 10,000 entries is read in one pass; the first bad one is named by its line.
    @Test func tenThousandKeyMovesAreReadAndTheFirstBadOneNamed() throws {
        let entries = (0..<10_000).map { "\"k\($0)\" = \"x\($0)\"" }.joined(separator: "\n")
        let config = try DashboardConfig(toml: "[keys]\n" + entries, file: "config.toml", options: Self.options)
        #expect(config.keyMoves.count == 10_000)
        #expect {
            try config.bindings(file: "config.toml")
        } throws: { error in
            guard let error = error as? ConfigError else { return false }
            return error.line == config.keyMoves.first?.line && error.line != nil
        }
    }
}
