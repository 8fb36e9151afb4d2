import Foundation
import LinkSim
import PresenceLab
import Testing

/// Scenario files: the shipped ones read, and every kind of mistake named with its line.
@Suite struct ScenarioFileTests {
    static let scenarios = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("scenarios")

    static func read(_ text: String) throws(ScenarioError) -> ScenarioFile {
        try ScenarioFile(toml: text, file: "test.toml")
    }

    @Test func theShippedScenariosRead() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.scenarios.path).filter {
            $0.hasSuffix(".toml")
        }
        #expect(
            Set(files) == ["presence-flow.toml", "flapping-phone.toml", "dead-wifi.toml", "server-crash.toml"])
        for file in files {
            let text = try String(contentsOf: Self.scenarios.appendingPathComponent(file), encoding: .utf8)
            let scenario = try ScenarioFile(toml: text, file: file)
            #expect(!scenario.name.isEmpty && !scenario.expectations.isEmpty, "\(file)")
        }
    }

    @Test func stepsAndExpectationsReadAsWritten() throws {
        let scenario = try Self.read(
            """
            name = "x"
            [population]
            users = 2
            devices = 1
            seed = 9
            heartbeat = 3

            [[step]]
            at = 5
            add_device = "alex"

            [[step]]
            at = 6
            device = "alex/laptop"
            latency_ms = 300
            bytes_per_second = 2000

            [[step]]
            at = 1
            device = "this"
            network = "blackhole"

            [[step]]
            at = 7
            server_restart = 1.5

            [[expect]]
            queue_empty = "this"
            after = 2
            within = 10
            """)
        #expect(scenario.population == .init(users: 2, devices: 1, seed: 9, heartbeat: 3))
        #expect(scenario.steps.map(\.at) == [1, 5, 6, 7], "in time order")
        #expect(scenario.steps[0].action == .network(.this, .blackhole) && scenario.steps[0].line == 18)
        #expect(scenario.steps[1].action == .addDevice(user: "alex"))
        #expect(
            scenario.steps[2].action
                == .conditions(
                    .population(user: "alex", device: "laptop"),
                    LinkConditions(latency: .milliseconds(300), bytesPerSecond: 2000)))
        #expect(scenario.steps[3].action == .serverRestart(downFor: 1.5))
        #expect(scenario.expectations == [.init(condition: .queueEmpty(.this), after: 2, within: 10, line: 27)])
        #expect(scenario.duration == 12)
    }

    /// Each mistake, with the line it is named at and a part of its message.
    @Test(
        arguments: [
            ("name = \"x\"\n[[step]\nat = 1", 2, "expected"),
            ("name = \"x\"\ncolour = 3\n[[expect]]\nno_ghosts = true\nwithin = 1", 2, "unknown key 'colour'"),
            (
                "[[step]]\nat = 1\ndevice = \"this\"\nnetwork = \"up\"\nwrite = 3", 1,
                "one action, not network and write"
            ),
            ("[[step]]\nat = 1\ndevice = \"this\"", 1, "a step needs one action"),
            ("[[step]]\ndevice = \"this\"\nnetwork = \"up\"", 1, "a step needs 'at'"),
            ("[[step]]\nat = 1\ndevice = \"this\"\nnetwork = \"sideways\"", 4, "\"up\", \"offline\" or \"blackhole\""),
            ("[[step]]\nat = 1\ndevice = \"alex/fridge\"\nnetwork = \"up\"", 1, "no device 'alex/fridge' at 1.0 s"),
            (
                "[[step]]\nat = 1\ndevice = \"alex/tablet\"\nnetwork = \"up\"\n[[step]]\nat = 2\nadd_device = \"alex\"",
                1,
                "no device 'alex/tablet'"
            ),
            ("[[step]]\nat = 1\ndevice = \"this\"\ncrash = true", 4, "this device runs the dashboard"),
            (
                "[[step]]\nat = 1\nserver_restart = 500", 3,
                "'server_restart' must be a number of seconds from 0.0 to 120.0"
            ),
            ("[[expect]]\nno_ghosts = true", 1, "an expectation needs 'within'"),
            ("[[expect]]\nuser_offline = \"nobody\"\nwithin = 3", 1, "no user 'nobody'"),
            ("[[expect]]\nno_ghosts = true\nuser_online = \"alex\"\nwithin = 3", 1, "one condition, not"),
            ("[population]\nusers = 0", 2, "'users' must be a whole number from 1 to 50"),
            ("name = \"nothing\"", nil, "no [[step]] and no [[expect]]"),
            // CRLF line ends count lines as LF ones do.
            ("[[step]]\r\nat = 1\r\ndevice = \"this\"\r\nnetwork = \"sideways\"\r\n", 4, "\"up\", \"offline\" or"),
            ("name = \"x\"\r\n\r\n[[step]]\r\nat = 1\r\ndevice = \"this\"", 3, "a step needs one action"),
            // Steps as an array of inline tables: each is named by its own line.
            (
                "name = \"x\"\nstep = [\n  {at = 1, device = \"this\", network = \"up\"},\n  {at = 2, device = \"this\", network = \"sideways\"},\n]",
                4, "\"up\", \"offline\" or"
            ),
            ("step = [{at = 1, device = \"this\"}]", 1, "a step needs one action"),
            // A quoted header is the same table.
            ("[[\"step\"]]\nat = 1\ndevice = \"this\"\nnetwork = \"sideways\"", 4, "\"up\", \"offline\" or"),
            ("[ 'population' ]\nusers = 0", 2, "'users' must be a whole number from 1 to 50"),
            // A key too deep for toml++'s recursion is refused before it sees it.
            (
                Array(repeating: "a", count: 50_000).joined(separator: ".") + " = 1", 1,
                "the most this reader takes is 64"
            ),
        ] as [(String, Int?, String)])
    func aMistakeIsNamedWithItsLine(_ text: String, _ line: Int?, _ problem: String) {
        #expect {
            try Self.read(text)
        } throws: { error in
            guard let error = error as? ScenarioError else { return false }
            #expect(error.line == line, "\(error)")
            #expect(error.problem.contains(problem), "\(error)")
            return error.file == "test.toml"
        }
    }

    @Test func aDeviceAddedEarlierCanBeNamedLater() throws {
        let scenario = try Self.read(
            "[[step]]\nat = 1\nadd_device = \"alex\"\n[[step]]\nat = 2\ndevice = \"alex/tablet\"\nnetwork = \"offline\""
        )
        #expect(scenario.steps.count == 2)
    }

    @Test func stepsCannotAddWithoutBound() throws {
        let steps = (0..<3_000).map { "[[step]]\nat = \(Double($0) / 100)\nadd_device = \"alex\"\n" }.joined()
        #expect {
            try Self.read(steps)
        } throws: { error in
            "\(error)".contains("3000 add_device steps: a scenario adds at most 50 devices")
        }
    }

    /// Each step's line is found in one pass over the file: a long script reads whole.
    @Test func sixteenThousandStepsRead() throws {
        let steps = (0..<16_000).map {
            "[[step]]\nat = \(Double($0) / 10)\ndevice = \"alex/phone\"\nnetwork = \"\($0 % 2 == 0 ? "offline" : "up")\"\n"
        }.joined()
        let scenario = try Self.read(steps)
        #expect(scenario.steps.count == 16_000 && scenario.steps.last?.line == 4 * 15_999 + 1)
    }
}
