import ArgumentParser
import Foundation
import Logging
import PresenceLab
import RTDBCore
import RTDBServer
import UnixSignals

#if canImport(Glibc)
    import Glibc
#endif

/// `presencetop watch`: the dashboard's engine without the screen, presence as JSON Lines.
struct WatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Watch presence without a screen: JSON Lines on stdout, metrics for Prometheus.",
        discussion: """
            It takes the dashboard's options and settings file: without --url it watches the \
            embedded lab (its server, population and this device), with --url (several times for \
            several databases) it watches yours. One JSON object a line (docs/watch.md): \
            "presence" for each user whose presence changed (user, state, connections, lastOnline, \
            at, databases), "connection" for each change of a watcher's connection, "summary" once \
            the first list is in and every --summary-every seconds. Each line is written as it \
            happens; a reader that goes (| head) ends the watch, and so do SIGTERM and SIGINT \
            (status 0). With --metrics-listen the same figures are served as Prometheus metrics.
            """
    )

    @OptionGroup var session: SessionOptions
    @OptionGroup var scenarioOption: ScenarioOption

    @Option(
        parsing: .unconditional,
        help: "Seconds between summary lines (0: only the one after the first list).")
    var summaryEvery: Double = 10

    @Flag(help: "Leave out the users listed at first: only changes after the first list.")
    var changesOnly = false

    @Option(
        help: ArgumentHelp(
            "Serve the watched figures at http://HOST:PORT/metrics (PORT alone: on loopback; 0: any free port).",
            valueName: "HOST:PORT"))
    var metricsListen: String?

    /// `--summary-every`: none, or up to a day between summaries.
    static let summaryRange = SecondsRange(0...86_400)

    func validate() throws {
        _ = try Self.summaryRange.option(summaryEvery, "--summary-every")
        if let metricsListen { _ = try ServeCommand.metricsAddress(metricsListen) }
    }

    func run() async throws {
        let scenario = try scenarioOption.load()
        var options = try session.simulationOptions()
        if let scenario { options.usePopulation(of: scenario) }
        let logger = try makeLogger()
        // A reader that goes is an EPIPE to handle, not a signal that kills the process.
        signal(SIGPIPE, SIG_IGN)
        let signals = await UnixSignalsSequence(trapping: .sigterm, .sigint)
        let watch = try await PresenceWatch.start(options, changesOnly: changesOnly, logger: logger)
        let simulation = watch.simulation
        let player = scenario.map { scenario in Task { _ = await simulation.play(scenario) } }
        if session.churn > 0, scenario == nil {
            simulation.startChurn(every: try SessionOptions.churnRange.option(session.churn, "--churn"))
        }
        // What stops the watch besides its reader: a signal (nil), or the metrics listener's
        // failure (why).
        let (stops, stop) = AsyncStream.makeStream(of: String?.self)
        let metrics = try metricsListen.map { text in
            let (host, port) = try ServeCommand.metricsAddress(text)
            return MetricsListener(host: host, port: port) { watch.metricsText() }
        }
        let serving = metrics.map { listener in
            Task {
                do {
                    try await listener.run(logger: logger) { host, port in
                        ServeCommand.sayMetricsListening(host: host, port: port, command: "watch")
                    }
                } catch {
                    stop.yield("--metrics-listen \(listener.host):\(listener.port): \(error)")
                }
            }
        }
        let summary = try Self.summaryRange.option(summaryEvery, "--summary-every")
        let watching = Task {
            await watch.run(
                summaryEvery: summary > .zero ? summary : nil, write: PresenceWatch.writer(to: STDOUT_FILENO))
        }
        let signalled = Task {
            for await _ in signals {
                stop.yield(nil)
                return
            }
        }
        let stopper = Task {
            for await reason in stops {
                watching.cancel()
                return reason
            }
            return nil
        }
        let end = await watching.value
        stop.finish()
        signalled.cancel()
        let failure = await stopper.value
        await metrics?.stop()
        await serving?.value
        player?.cancel()
        await DashboardCommand.stop(simulation, logger: logger)
        if case .outputFailed(let reason) = end {
            FileHandle.standardError.write(Data("presencetop: cannot write to stdout: \(reason)\n".utf8))
            throw ExitCode(1)
        }
        if let failure {
            FileHandle.standardError.write(Data("presencetop: \(failure)\n".utf8))
            throw ExitCode(1)
        }
    }

    /// Logs go to `--log` when it is given, else to stderr (warnings and worse): stdout is the
    /// lines'.
    private func makeLogger() throws -> Logger {
        guard let path = session.log else {
            var logger = Logger(label: "presencetop.watch") { StreamLogHandler.standardError(label: $0) }
            logger.logLevel = .warning
            return logger
        }
        return try SessionOptions.fileLogger(path, label: "presencetop.watch")
    }
}
