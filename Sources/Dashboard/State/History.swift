/// The last `capacity` samples of something, oldest first: what a sparkline draws.
public struct History<Value: Sendable & Equatable>: Sendable, Equatable {
    /// How many samples it keeps.
    public let capacity: Int
    /// The samples, oldest first.
    public private(set) var values: [Value] = []

    /// Makes an empty history.
    public init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// Adds a sample, dropping the oldest past capacity.
    public mutating func append(_ value: Value) {
        values.append(value)
        if values.count > capacity { values.removeFirst(values.count - capacity) }
    }

    /// The newest sample.
    public var last: Value? { values.last }
}
