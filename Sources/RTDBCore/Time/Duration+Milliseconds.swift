extension Duration {
    /// The span in whole milliseconds, rounded toward zero: the wire's unit.
    public var wholeMilliseconds: Int64 {
        let (seconds, attoseconds) = components
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1000)
        guard !overflow else { return seconds > 0 ? .max : .min }
        let (sum, overflowed) = scaled.addingReportingOverflow(attoseconds / 1_000_000_000_000_000)
        return overflowed ? (seconds > 0 ? .max : .min) : sum
    }

    /// The span in (fractional) milliseconds, for figures and estimates.
    public var inMilliseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1000 + Double(attoseconds) / 1e15
    }

    /// The span in (fractional) seconds.
    public var inSeconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
