import Prometheus
import RTDBRules

/// What the server counts of writes: stored or refused, how many each commit stored and how
/// long it took, how long an acknowledgement waited, the disk's failures, the rules' denials.
struct WriteMetrics: Sendable {
    /// Writes stored.
    let stored: Counter
    /// Writes refused because the disk did not take them.
    let diskRefused: Counter
    /// Writes the rules denied.
    let rulesDenied: Counter
    /// Writes stored by one commit.
    let groupCommit: ValueHistogram
    /// How long one commit took.
    let commitSeconds: DurationHistogram
    /// From a write applied to its acknowledgement.
    let ackSeconds: DurationHistogram
    /// Commits that failed.
    let storeFailures: Counter
    /// Requests the rules refused, by operation.
    let denials: [RuleDenial.Operation: Counter]

    /// The write metrics, at zero, in `registry`.
    init(_ registry: PrometheusCollectorRegistry) {
        func writes(_ outcome: String) -> Counter {
            registry.counter(
                name: "presencetop_writes_total", labels: [("outcome", outcome)], help: "Writes, by outcome.")
        }
        stored = writes("stored")
        diskRefused = writes("disk_refused")
        rulesDenied = writes("rules_denied")
        groupCommit = registry.valueHistogram(
            name: "presencetop_group_commit_writes", buckets: [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024],
            help: "Writes stored by one commit to the disk.")
        commitSeconds = registry.durationHistogram(
            name: "presencetop_commit_seconds",
            buckets: [
                .microseconds(500), .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10),
                .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250), .seconds(1),
            ],
            help: "How long one commit to the disk took.")
        ackSeconds = registry.durationHistogram(
            name: "presencetop_write_ack_seconds",
            buckets: [
                .microseconds(100), .microseconds(500), .milliseconds(1), .milliseconds(2), .milliseconds(5),
                .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250),
                .seconds(1), .seconds(5),
            ],
            help: "From a client's write applied to its acknowledgement (once stored).")
        storeFailures = registry.counter(
            name: "presencetop_store_failures_total", help: "Commits to the disk that failed (a full or broken disk).")
        denials = ServerMetrics.counters(
            registry, "presencetop_rules_denials_total", by: "operation", ServerMetrics.label,
            help: "Requests the security rules refused, by operation.")
    }
}
