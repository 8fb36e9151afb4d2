import ArgumentParser
import RTDBCore

extension SecondsRange {
    /// An option's seconds as a span, or the command line's error naming the option and its range.
    func option(_ seconds: Double, _ name: String) throws -> Duration {
        do {
            return try duration(seconds, for: name)
        } catch {
            throw ValidationError(error.description)
        }
    }
}
