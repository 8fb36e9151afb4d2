/// The events a listener can observe, as in FirebaseDatabase.
public enum DataEventType: Int, Sendable, CaseIterable {
    /// A child was added.
    case childAdded
    /// A child was removed.
    case childRemoved
    /// A child's data changed.
    case childChanged
    /// A child moved in the query's order.
    case childMoved
    /// The data at the location, whenever any of it changes.
    case value

    var engineType: EventType {
        switch self {
        case .childAdded: return .childAdded
        case .childRemoved: return .childRemoved
        case .childChanged: return .childChanged
        case .childMoved: return .childMoved
        case .value: return .value
        }
    }
}
