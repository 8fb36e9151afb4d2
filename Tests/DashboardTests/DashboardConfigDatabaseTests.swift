import Dashboard
import Testing

/// `[[database]]` tables: several databases watched as one directory, each with its own sign-in
/// and layout, as command-line arguments; mistakes named.
struct DashboardConfigDatabaseTests {
    static let scoped: Set<String> = ["credentials", "layout", "database-secret-file"]

    @Test func eachTableIsAURLWithItsOwnOptions() throws {
        let config = try DashboardConfig(
            toml: """
                [options]
                users = 3

                [[database]]
                url = "https://shard-1.firebaseio.com"
                credentials = "/keys/one.json"

                [[database]]
                url = "http://127.0.0.1:9002?ns=b"
                layout = "status"
                """, file: "config.toml", options: DashboardConfigTests.options, databaseOptions: Self.scoped)
        #expect(config.arguments == ["--users=3"])
        #expect(
            config.databaseArguments == [
                "--url=https://shard-1.firebaseio.com", "--credentials=/keys/one.json",
                "--url=http://127.0.0.1:9002?ns=b", "--layout=status",
            ])
    }

    @Test func mistakesAreNamed() {
        let cases: [(String, String)] = [
            ("[[database]]\nlayout = \"status\"\n", "config.toml:1: [[database]] #1 needs a url"),
            (
                "[[database]]\nurl = \"http://a\"\n[[database]]\nurl = \"http://b\"\ncolour = \"red\"\n",
                "config.toml:5: [[database]] #2: unknown key 'colour' (keys: url, credentials"
            ),
            ("[[database]]\nurl = 3\n", "config.toml:2: [[database]] #1 needs a url (a string)"),
            ("database = 3\n", "config.toml:1: 'database' must be tables ([[database]])"),
            (
                "[[database]]\nurl = \"http://a\"\nlayout = 1\n",
                "config.toml:3: [[database]] #1: 'layout' must be a string"
            ),
        ]
        for (text, message) in cases {
            do {
                _ = try DashboardConfig(
                    toml: text, file: "config.toml", options: DashboardConfigTests.options, databaseOptions: Self.scoped
                )
                Issue.record("accepted: \(text)")
            } catch {
                #expect(error.description.hasPrefix(message), "\(error.description)")
            }
        }
        // Where databases are not taken (no options for them), the table is an unknown key.
        do {
            _ = try DashboardConfig(
                toml: "[[database]]\nurl = \"http://a\"\n", file: "config.toml", options: DashboardConfigTests.options)
            Issue.record("accepted")
        } catch {
            #expect(error.description.hasPrefix("config.toml:1: unknown key 'database'"), "\(error.description)")
        }
    }
}
