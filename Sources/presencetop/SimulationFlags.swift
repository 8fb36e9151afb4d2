import ArgumentParser
import LinkSim
import Presence
import PresenceLab

/// The checks the `demo` and dashboard flags share: one home for each rule.
enum SimulationFlags {
    /// The preset named by `--link`, or an error naming the presets.
    static func conditions(named name: String) throws -> LinkConditions {
        guard let conditions = LinkConditions.preset(named: name) else {
            let names = LinkConditions.presets.map(\.name).joined(separator: ", ")
            throw ValidationError("--link '\(name)' is not a preset (\(names))")
        }
        return conditions
    }

    /// The server named by `--url`, or an error showing the expected form.
    static func target(url: String) throws -> ServerTarget {
        guard let target = ServerTarget(url: url) else {
            throw ValidationError(
                "--url '\(url)' is not a database URL (http://HOST:PORT?ns=NAME, https://<db>.firebaseio.com or "
                    + "https://<db>.<region>.firebasedatabase.app; FIREBASE_DATABASE_EMULATOR_HOST must be host:port)")
        }
        return target
    }
}
