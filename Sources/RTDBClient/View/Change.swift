import RTDBCore

/// The kinds of events a view raises, in the order they are raised for one operation.
public enum EventType: String, Sendable, CaseIterable, Comparable {
    /// A child left the view.
    case childRemoved = "child_removed"
    /// A child entered the view.
    case childAdded = "child_added"
    /// A child's position in the index order changed.
    case childMoved = "child_moved"
    /// A child's data changed.
    case childChanged = "child_changed"
    /// The whole view's data.
    case value

    private var order: Int {
        switch self {
        case .childRemoved: 0
        case .childAdded: 1
        case .childMoved: 2
        case .childChanged: 3
        case .value: 4
        }
    }

    /// Removed < added < moved < changed < value.
    public static func < (lhs: EventType, rhs: EventType) -> Bool { lhs.order < rhs.order }
}

/// A change to a view, before it becomes an event for each registration.
struct Change {
    var type: EventType
    var node: Node
    var childKey: ChildKey?
    var oldNode: Node?
    var previousKey: ChildKey?

    /// The child and its data, for a child event (nil for a value event).
    var namedNode: NamedNode? { childKey.map { NamedNode(key: $0, node: node) } }

    static func value(_ node: Node) -> Change { Change(type: .value, node: node) }
    static func added(_ key: ChildKey, _ node: Node) -> Change { Change(type: .childAdded, node: node, childKey: key) }
    static func removed(_ key: ChildKey, _ node: Node) -> Change {
        Change(type: .childRemoved, node: node, childKey: key)
    }
    static func changed(_ key: ChildKey, _ node: Node, old: Node) -> Change {
        Change(type: .childChanged, node: node, childKey: key, oldNode: old)
    }
    static func moved(_ key: ChildKey, _ node: Node) -> Change { Change(type: .childMoved, node: node, childKey: key) }
}

/// Folds several changes to one child within one operation into one (docs/client-engine.md#views).
final class ChildChangeAccumulator {
    private(set) var changes: [Change] = []
    private var positions: [ChildKey: Int] = [:]
    /// Whether anyone needs each child's change of a whole node replaced at once; without a
    /// child listener only whether something changed matters (a first load of a million
    /// children is one `value`, not a million changes to fold).
    let wantsEachChild: Bool
    /// Whether a whole node was replaced by a different one without its children tracked.
    private(set) var replacedWholeNode = false

    init(wantsEachChild: Bool = true) {
        self.wantsEachChild = wantsEachChild
    }

    /// Whether anything changed.
    var hasChanges: Bool { !changes.isEmpty || replacedWholeNode }

    /// Notes that a whole node was replaced by a different one (its children not tracked).
    func noteWholeNodeReplaced() { replacedWholeNode = true }

    func track(_ change: Change) {
        guard let key = change.childKey else { return }
        guard let position = positions[key] else {
            positions[key] = changes.count
            changes.append(change)
            return
        }
        let old = changes[position]
        switch (change.type, old.type) {
        case (.childAdded, .childRemoved):
            changes[position] = .changed(key, change.node, old: old.node)
        case (.childRemoved, .childAdded):
            changes.remove(at: position)
            positions[key] = nil
            for (other, index) in positions where index > position { positions[other] = index - 1 }
        case (.childRemoved, .childChanged):
            changes[position] = .removed(key, old.oldNode ?? old.node)
        case (.childChanged, .childAdded):
            changes[position] = .added(key, change.node)
        case (.childChanged, .childChanged):
            changes[position] = .changed(key, change.node, old: old.oldNode ?? old.node)
        default:
            preconditionFailure("illegal change sequence \(old.type) then \(change.type) for \(key)")
        }
    }
}
