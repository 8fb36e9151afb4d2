import ArgumentParser

/// `presencetop-bench`: measurements that are not tests, in an executable of their own (they were
/// half of `presencetop`'s size).
@main struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "presencetop-bench",
        abstract: "Run benchmarks (build with -c release for meaningful figures).",
        subcommands: [
            ServerWriteBenchmark.self, ClientEventBenchmark.self, ColdStartBenchmark.self, RenderBenchmark.self,
            ProjectBenchmark.self, ProjectSeedCommand.self,
            FloodBenchmark.self, DrainBenchmark.self, LatencyBenchmark.self, PresenceBenchmark.self,
            DiskFaultBenchmark.self, RulesBenchmark.self, ListenBenchmark.self,
        ]
    )
}
