import Prometheus

/// Metrics made by their full Prometheus name and help text, the way this project names them
/// (`presencetop_sessions_open`, `process_open_fds`): swift-prometheus's descriptors, with the
/// whole name as the metric's and no unit appended.
extension PrometheusCollectorRegistry {
    /// The counter `name`, with `labels` when given.
    public func counter(name: String, labels: [(String, String)] = [], help: String) -> Counter {
        let descriptor = Self.descriptor(name, help)
        return labels.isEmpty
            ? makeCounter(descriptor: descriptor) : makeCounter(descriptor: descriptor, labels: labels)
    }

    /// The gauge `name`, with `labels` when given.
    public func gauge(name: String, labels: [(String, String)] = [], help: String) -> Gauge {
        let descriptor = Self.descriptor(name, help)
        return labels.isEmpty ? makeGauge(descriptor: descriptor) : makeGauge(descriptor: descriptor, labels: labels)
    }

    /// The histogram of durations `name`, in `buckets`.
    public func durationHistogram(name: String, buckets: [Duration], help: String) -> DurationHistogram {
        makeDurationHistogram(descriptor: Self.descriptor(name, help), buckets: buckets)
    }

    /// The histogram of values `name`, in `buckets`.
    public func valueHistogram(name: String, buckets: [Double], help: String) -> ValueHistogram {
        makeValueHistogram(descriptor: Self.descriptor(name, help), buckets: buckets)
    }

    private static func descriptor(_ name: String, _ help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(metricName: name, unitName: "", helpText: help)
    }
}
