import Foundation
import RTDBCore

extension Simulation {
    /// Stops the embedded server, waits `downFor`, and starts it again on the same port (with its
    /// data, when it keeps it on disk): every client sees its connection end and reconnects.
    public func restartServer(downFor: Duration) async throws(ScenarioRun.StepError) {
        guard let old = embedded else {
            throw ScenarioRun.StepError(description: "a server restart needs the embedded server, not \(target)")
        }
        guard case .embedded(let dataDirectory) = options.server else { return }
        await old.stop()
        emit(.notice("server stopped; it starts again in \(downFor)"))
        try? await Task.sleep(for: downFor)
        do {
            let server = try await EmbeddedServer.start(
                dataDirectory: dataDirectory, port: old.port, logger: logger, time: options.serverTime
            ) {
                $0.configureForLab(options)
            }
            embeddedServer.withLock { $0 = server }
            emit(.notice("server started again on port \(server.port)"))
        } catch {
            throw ScenarioRun.StepError(description: "the server did not start again: \(error)")
        }
    }
}

extension Simulation {
    /// Plays a scenario file (``ScenarioRun/play(_:on:report:)``), each step and verdict an event.
    ///
    /// The last event is the verdict: `scenario "NAME": PASS, 4 of 4 expectations held`.
    public func play(_ scenario: ScenarioFile) async -> [ScenarioRun.Verdict] {
        let verdicts = await ScenarioRun.play(scenario, on: self) { [weak self] event in
            let line = event.line
            self?.emit(.scenario(line.text, good: line.good))
        }
        let verdict = ScenarioRun.summary(scenario, verdicts)
        emit(.scenario(verdict.text, good: verdict.passed))
        return verdicts
    }
}
