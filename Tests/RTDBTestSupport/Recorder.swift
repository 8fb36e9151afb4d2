import Synchronization

/// Collects values from callbacks on any thread, for assertions.
public final class Recorder<Value: Sendable>: Sendable {
    private let values = Mutex<[Value]>([])

    /// Makes an empty recorder.
    public init() {}

    /// Keeps a value.
    public func record(_ value: Value) { values.withLock { $0.append(value) } }

    /// Every value so far, oldest first.
    public var all: [Value] { values.withLock { $0 } }

    /// The newest value.
    public var last: Value? { values.withLock { $0.last } }
}
