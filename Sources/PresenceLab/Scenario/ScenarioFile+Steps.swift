import LinkSim
import RTDBCore
import TOMLKit

extension ScenarioFile {
    /// Reads steps and expectations, checking that every device they name exists when they run.
    struct StepReader {
        let population: Population
        let places: TOMLPlaces
        let fail: (Int?, String) -> ScenarioError

        /// One `[[step]]`.
        func step(_ table: TOMLTable, index: Int) throws(ScenarioError) -> Step {
            let section = TOMLPlaces.Table("step", index: index)
            let header = places.header(section)
            func line(_ key: String) -> Int? { places.line(of: key, in: section) }
            var at: Double?
            var device: Device?
            var actions: [String] = []
            for (key, value) in table {
                switch key {
                case "at":
                    guard let seconds = ScenarioFile.seconds(value, in: SecondsRange(0...3600)) else {
                        throw fail(line(key), "'at' must be a number of seconds from 0 to 3600")
                    }
                    at = seconds
                case "device":
                    guard let name = value.string else { throw fail(line(key), "'device' must be a string") }
                    device = try self.device(name, line: line(key))
                case _ where ScenarioFile.actionKeys.contains(key):
                    actions.append(key)
                default:
                    throw fail(
                        line(key),
                        "unknown key '\(key)' in a step (expected at, device and one action of: \(ScenarioFile.actionKeys.joined(separator: ", ")))"
                    )
                }
            }
            guard let at else { throw fail(header, "a step needs 'at' (seconds after the start)") }
            let conditionKeys: Set = ["latency_ms", "jitter_ms", "bytes_per_second"]
            let kinds = Set(actions.map { conditionKeys.contains($0) ? "conditions" : $0 })
            guard kinds.count == 1, let kind = kinds.first else {
                throw fail(
                    header,
                    kinds.isEmpty
                        ? "a step needs one action (\(ScenarioFile.actionKeys.joined(separator: ", ")))"
                        : "a step has one action, not \(actions.sorted().joined(separator: " and "))")
            }
            let action = try self.action(kind, table, device: device, line: line)
            return Step(at: at, action: action, line: header ?? 0)
        }

        private func action(
            _ kind: String, _ table: TOMLTable, device: Device?, line: (String) -> Int?
        ) throws(ScenarioError) -> Action {
            func needsDevice() throws(ScenarioError) -> Device {
                guard let device else {
                    throw fail(line(kind), "'\(kind)' needs a 'device' (\"this\" or \"user/device\")")
                }
                return device
            }
            func seconds(_ key: String, _ range: ClosedRange<Double>) throws(ScenarioError) -> Double {
                guard let value = ScenarioFile.seconds(table[key], in: SecondsRange(range)) else {
                    throw fail(
                        line(key),
                        "'\(key)' must be a number of seconds from \(range.lowerBound) to \(range.upperBound)")
                }
                return value
            }
            func flag(_ key: String) throws(ScenarioError) -> Bool {
                guard let value = table[key]?.bool else { throw fail(line(key), "'\(key)' must be true or false") }
                return value
            }
            switch kind {
            case "network":
                let device = try needsDevice()
                guard let name = table["network"]?.string, let mode = try? LinkMode.named(name) else {
                    throw fail(line(kind), "'network' must be \"up\", \"offline\" or \"blackhole\"")
                }
                return .network(device, mode)
            case "conditions":
                let device = try needsDevice()
                func milliseconds(_ key: String) throws(ScenarioError) -> Duration {
                    guard let value = table[key] else { return .zero }
                    guard let count = value.int, (0...60_000).contains(count) else {
                        throw fail(line(key), "'\(key)' must be a whole number from 0 to 60000")
                    }
                    return .milliseconds(count)
                }
                var bytes: Int?
                if let value = table["bytes_per_second"] {
                    guard let count = value.int, count >= 100 else {
                        throw fail(line("bytes_per_second"), "'bytes_per_second' must be a whole number ≥ 100")
                    }
                    bytes = count
                }
                let conditions = LinkConditions(
                    latency: try milliseconds("latency_ms"), jitter: try milliseconds("jitter_ms"),
                    bytesPerSecond: bytes)
                return .conditions(device, conditions)
            case "write":
                let device = try needsDevice()
                guard let count = table["write"]?.int, (1...10_000).contains(count) else {
                    throw fail(line(kind), "'write' must be how many writes, from 1 to 10000")
                }
                return .write(device, count: count)
            case "transaction":
                guard try flag(kind) else { throw fail(line(kind), "'transaction' is written as transaction = true") }
                return .transaction(try needsDevice())
            case "crash", "restart":
                guard try flag(kind) else { throw fail(line(kind), "'\(kind)' is written as \(kind) = true") }
                let device = try needsDevice()
                guard device != .this else {
                    throw fail(line(kind), "'\(kind)' acts on a population device; this device runs the dashboard")
                }
                return kind == "crash" ? .crash(device) : .restart(device)
            case "sign_in":
                return .signIn(try needsDevice(), try flag(kind))
            case "add_device":
                guard device == nil, let user = table[kind]?.string else {
                    throw fail(line(kind), "'add_device' names a user (add_device = \"alex\") and takes no 'device'")
                }
                return .addDevice(user: user)
            case "clock_jump":
                return .clockJump(try needsDevice(), seconds: try seconds(kind, -86_400...86_400))
            case "credential":
                let device = try needsDevice()
                guard let state = table[kind]?.string, ["expired", "renewed"].contains(state) else {
                    throw fail(line(kind), "'credential' must be \"expired\" or \"renewed\"")
                }
                return .credential(device, expired: state == "expired")
            default:  // server_restart
                guard device == nil else { throw fail(line("device"), "'server_restart' takes no 'device'") }
                return .serverRestart(downFor: try seconds(kind, 0...120))
            }
        }

        /// `this`, or `user/device` of the population (checked when the steps are in order).
        private func device(_ name: String, line: Int?) throws(ScenarioError) -> Device {
            if name == "this" { return .this }
            let parts = name.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                throw fail(line, "'\(name)' is not a device: \"this\" or \"user/device\" (as \"alex/phone\")")
            }
            return .population(user: String(parts[0]), device: String(parts[1]))
        }

        /// One `[[expect]]`.
        func expectation(_ table: TOMLTable, index: Int) throws(ScenarioError) -> Expectation {
            let section = TOMLPlaces.Table("expect", index: index)
            func line(_ key: String) -> Int? { places.line(of: key, in: section) }
            var after = 0.0
            var within: Double?
            var conditions: [(String, Condition)] = []
            for (key, value) in table {
                switch key {
                case "after", "within":
                    guard let seconds = ScenarioFile.seconds(value, in: SecondsRange(0...3600)) else {
                        throw fail(line(key), "'\(key)' must be a number of seconds from 0 to 3600")
                    }
                    if key == "after" { after = seconds } else { within = seconds }
                case "user_offline", "user_online":
                    guard let user = value.string else { throw fail(line(key), "'\(key)' names a user") }
                    conditions.append((key, key == "user_offline" ? .userOffline(user) : .userOnline(user)))
                case "queue_empty":
                    guard let name = value.string else { throw fail(line(key), "'queue_empty' names a device") }
                    conditions.append((key, .queueEmpty(try device(name, line: line(key)))))
                case "one_entry_per_live_device", "no_ghosts":
                    guard value.bool == true else { throw fail(line(key), "'\(key)' is written as \(key) = true") }
                    conditions.append((key, key == "no_ghosts" ? .noGhosts : .oneEntryPerLiveDevice))
                default:
                    throw fail(
                        line(key),
                        "unknown key '\(key)' in an expectation (expected after, within and one of: \(ScenarioFile.conditionKeys.joined(separator: ", ")))"
                    )
                }
            }
            guard conditions.count == 1, let condition = conditions.first?.1 else {
                throw fail(
                    places.header(section),
                    conditions.isEmpty
                        ? "an expectation needs one condition (\(ScenarioFile.conditionKeys.joined(separator: ", ")))"
                        : "an expectation has one condition, not \(conditions.map(\.0).sorted().joined(separator: " and "))"
                )
            }
            guard let within else { throw fail(places.header(section), "an expectation needs 'within' (seconds)") }
            return Expectation(condition: condition, after: after, within: within, line: places.header(section) ?? 0)
        }
    }
}
