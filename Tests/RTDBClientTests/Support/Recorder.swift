import Synchronization

/// Collects values from callbacks on any thread, for assertions.
final class Recorder<Value: Sendable>: Sendable {
    private let values = Mutex<[Value]>([])

    func record(_ value: Value) { values.withLock { $0.append(value) } }

    var all: [Value] { values.withLock { $0 } }

    var last: Value? { values.withLock { $0.last } }
}
