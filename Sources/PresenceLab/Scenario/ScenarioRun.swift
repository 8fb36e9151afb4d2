import Foundation

/// A scenario file played on a running simulation: its steps at their times, its expectations
/// checked as it goes, each passing the moment it holds or failing at its deadline.
public enum ScenarioRun {
    /// Where an expectation stands.
    public enum Verdict: Sendable, Equatable {
        /// Not decided yet.
        case pending
        /// It held, this long after its window opened.
        case passed(after: Duration)
        /// Its deadline passed first, and what stood in its way then.
        case failed(String)
    }

    /// What happens during a run.
    public enum Event: Sendable, Equatable {
        /// A step was carried out (its time, in seconds after the start).
        case step(ScenarioFile.Step)
        /// A step could not be carried out, and why.
        case stepFailed(ScenarioFile.Step, String)
        /// An expectation was decided.
        case decided(index: Int, ScenarioFile.Expectation, Verdict)
    }

    /// The verdict of a whole run in a line, and whether it passed (every expectation held).
    public static func summary(_ scenario: ScenarioFile, _ verdicts: [Verdict]) -> (text: String, passed: Bool) {
        let held = verdicts.filter { if case .passed = $0 { true } else { false } }.count
        let passed = held == verdicts.count
        return (
            "scenario \"\(scenario.name)\": \(passed ? "PASS" : "FAIL"), \(held) of \(verdicts.count) expectations held",
            passed
        )
    }

    /// How often expectations are checked.
    public static let checkInterval: Duration = .milliseconds(100)

    /// Plays `scenario` on `simulation`; returns each expectation's verdict once all are decided
    /// and every step was carried out.
    ///
    /// - Parameter report: Called with every event, as it happens.
    public static func play(
        _ scenario: ScenarioFile, on simulation: Simulation, report: @Sendable (Event) -> Void = { _ in }
    ) async -> [Verdict] {
        let start = ContinuousClock.now
        var verdicts = [Verdict](repeating: .pending, count: scenario.expectations.count)
        var next = 0
        while next < scenario.steps.count || verdicts.contains(.pending) {
            if Task.isCancelled { break }
            let elapsed = ContinuousClock.now - start
            while next < scenario.steps.count, elapsed >= .seconds(scenario.steps[next].at) {
                let step = scenario.steps[next]
                next += 1
                do {
                    try await apply(step.action, on: simulation)
                    report(.step(step))
                } catch {
                    report(.stepFailed(step, error.description))
                }
            }
            let now = ContinuousClock.now - start
            for (index, expectation) in scenario.expectations.enumerated() where verdicts[index] == .pending {
                let opens = Duration.seconds(expectation.after)
                guard now >= opens else { continue }
                if let obstacle = whyNot(expectation.condition, on: simulation) {
                    guard now > opens + .seconds(expectation.within) else { continue }
                    verdicts[index] = .failed(obstacle)
                } else {
                    verdicts[index] = .passed(after: now - opens)
                }
                report(.decided(index: index, expectation, verdicts[index]))
            }
            try? await Task.sleep(for: checkInterval)
        }
        return verdicts
    }
}
