import ArgumentParser

/// The options every benchmark takes.
struct BenchOptions: ParsableArguments {
    @Flag(help: "Print one JSON object with the run's figures instead of lines of text.")
    var json = false
}
