/// A node's priority, held by reference (``Node`` keeps one, or none, per node).
final class PriorityBox: Sendable {
    /// The priority.
    let value: Priority

    /// Holds `value`.
    init(_ value: Priority) { self.value = value }
}
