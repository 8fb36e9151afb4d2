import LinkSim
import RTDBCore
import TOMLKit

extension ScenarioFile {
    /// A field's seconds (a TOML integer or float), checked by the conversion every option and
    /// file field shares; nil when it is missing, not a number, or out of `range` (the caller
    /// names the field and its range).
    static func seconds(_ value: (any TOMLValueConvertible)?, in range: SecondsRange) -> Double? {
        guard let number = value?.double ?? value?.int.map(Double.init), range.allows(number) else { return nil }
        return number
    }

    /// The keys that name a step's action, one to a step.
    static let actionKeys = [
        "network", "latency_ms", "jitter_ms", "bytes_per_second", "write", "transaction", "crash", "restart",
        "sign_in", "add_device", "clock_jump", "credential", "server_restart",
    ]
    /// The most devices `add_device` steps may add in one scenario.
    static let maxAddedDevices = 50
    /// The keys that name an expectation's condition, one to an expectation.
    static let conditionKeys = ["user_offline", "user_online", "queue_empty", "one_entry_per_live_device", "no_ghosts"]

    /// Reads a scenario file (docs/scenarios.md).
    ///
    /// - Throws: ``ScenarioError`` with the line and the problem: TOML that does not parse, an
    ///   unknown key, a step with no action or two, a device the population does not have.
    public init(toml text: String, file: String) throws(ScenarioError) {
        let (table, places): (TOMLTable, TOMLPlaces)
        do {
            (table, places) = try TOMLText.table(text)
        } catch {
            throw ScenarioError(file: file, line: error.line, problem: error.problem)
        }
        func fail(_ line: Int?, _ problem: String) -> ScenarioError {
            ScenarioError(file: file, line: line, problem: problem)
        }
        var name = ""
        var summary = ""
        var population = Population()
        var stepTables: [TOMLTable] = []
        var expectTables: [TOMLTable] = []
        for (key, value) in table {
            let line = places.line(of: key, in: nil)
            switch key {
            case "name":
                guard let text = value.string else { throw fail(line, "'name' must be a string") }
                name = text
            case "summary":
                guard let text = value.string else { throw fail(line, "'summary' must be a string") }
                summary = text
            case "population":
                guard let members = value.table else { throw fail(line, "'population' must be a table") }
                population = try Self.population(members, places: places, fail: fail)
            case "step", "expect":
                guard let array = value.array, let tables = Optional(array.compactMap(\.table)),
                    tables.count == array.count
                else { throw fail(line, "'\(key)' must be an array of tables: [[\(key)]]") }
                if key == "step" { stepTables = tables } else { expectTables = tables }
            default:
                throw fail(
                    line, "unknown key '\(key)' (expected name, summary, [population], [[step]] and [[expect]])")
            }
        }
        let reader = StepReader(population: population, places: places, fail: fail)
        let added = stepTables.filter { $0["add_device"] != nil }.count
        guard added <= Self.maxAddedDevices else {
            throw fail(
                nil,
                "\(added) add_device steps: a scenario adds at most \(Self.maxAddedDevices) devices (as [population] has at most 50 a user)"
            )
        }
        var steps: [Step] = []
        for (index, step) in stepTables.enumerated() { steps.append(try reader.step(step, index: index)) }
        steps.sort { $0.at < $1.at }
        var expectations: [Expectation] = []
        for (index, expect) in expectTables.enumerated() {
            expectations.append(try reader.expectation(expect, index: index))
        }
        if steps.isEmpty && expectations.isEmpty { throw fail(nil, "the scenario has no [[step]] and no [[expect]]") }
        self.init(name: name, summary: summary, population: population, steps: steps, expectations: expectations)
        try checkDevices(fail: fail)
    }

    /// Checks that every device a step or an expectation names exists by then: the population's,
    /// and those `add_device` steps add before (named as the lab names them).
    private func checkDevices(fail: (Int?, String) -> ScenarioError) throws(ScenarioError) {
        let users = (0..<population.users).map(PresenceLab.Population.userName)
        var devices: [String: Int] = [:]
        for user in users { devices[user] = population.devices }
        func known(_ device: Device) -> Bool {
            guard case .population(let user, let name) = device else { return true }
            return (0..<(devices[user] ?? 0)).contains { PresenceLab.Population.deviceName($0) == name }
        }
        func describe() -> String {
            users.map { user in
                (0..<(devices[user] ?? 0)).map { "\(user)/\(PresenceLab.Population.deviceName($0))" }.joined(
                    separator: ", ")
            }.joined(separator: ", ")
        }
        for step in steps {
            if case .addDevice(let user) = step.action {
                guard devices[user] != nil else {
                    throw fail(step.line, "no user '\(user)' (the users are \(users.joined(separator: ", ")))")
                }
                devices[user, default: 0] += 1
            } else if let device = step.action.device, !known(device) {
                throw fail(step.line, "no device '\(device)' at \(step.at) s (there are this, \(describe()))")
            }
        }
        for expectation in expectations {
            switch expectation.condition {
            case .userOffline(let user), .userOnline(let user):
                guard devices[user] != nil else {
                    throw fail(expectation.line, "no user '\(user)' (the users are \(users.joined(separator: ", ")))")
                }
            case .queueEmpty(let device) where !known(device):
                throw fail(expectation.line, "no device '\(device)' (there are this, \(describe()))")
            default: break
            }
        }
    }

    private static func population(
        _ table: TOMLTable, places: TOMLPlaces, fail: (Int?, String) -> ScenarioError
    ) throws(ScenarioError) -> Population {
        var population = Population()
        for (key, value) in table {
            let line = places.line(of: key, in: TOMLPlaces.Table("population"))
            switch key {
            case "users", "devices":
                guard let count = value.int, (1...50).contains(count) else {
                    throw fail(line, "'\(key)' must be a whole number from 1 to 50")
                }
                if key == "users" { population.users = count } else { population.devices = count }
            case "seed":
                guard let seed = value.int, seed >= 0 else { throw fail(line, "'seed' must be a whole number ≥ 0") }
                population.seed = UInt64(seed)
            case "heartbeat":
                guard let seconds = Self.seconds(value, in: SecondsRange(1...300)) else {
                    throw fail(line, "'heartbeat' must be a number of seconds from 1 to 300")
                }
                population.heartbeat = seconds
            default:
                throw fail(line, "unknown key '\(key)' in [population] (expected users, devices, seed, heartbeat)")
            }
        }
        return population
    }
}
