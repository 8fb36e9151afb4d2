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
        // Each option as it would be typed: a name with its value, or a flag alone.
        var typed: Set<String> = []
        var index = 0
        while index < config.arguments.count {
            let name = config.arguments[index]
            let following: String? = index + 1 < config.arguments.count ? config.arguments[index + 1] : nil
            if let following, !following.hasPrefix("--") {
                typed.insert("\(name) \(following)")
                index += 2
            } else {
                typed.insert(name)
                index += 1
            }
        }
        #expect(typed == ["--users 12", "--link mobile", "--memory", "--churn 0.5"])
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
}
