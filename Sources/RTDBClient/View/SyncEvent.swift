import RTDBCore

/// Something that wants a view's events: a listener registered with `observe`.
protocol EventRegistration: AnyObject {
    func respondsTo(_ type: EventType) -> Bool
    var hasCancelCallback: Bool { get }
}

/// An event ready to raise: data for a listener, or the cancellation of its listen.
enum SyncEvent {
    case data(DataEvent)
    case cancel(registration: any EventRegistration, error: DatabaseError, path: Path)

    var registration: any EventRegistration {
        switch self {
        case .data(let event): return event.registration
        case .cancel(let registration, _, _): return registration
        }
    }
}

/// One data event: a `value` for the whole view, or a child event with its sibling.
struct DataEvent {
    var type: EventType
    var registration: any EventRegistration
    var query: QuerySpec
    /// The child for child events; nil for `value`.
    var childKey: ChildKey?
    var node: Node
    var previousKey: ChildKey?

    /// Where the event's snapshot lives.
    var path: Path { childKey.map { query.path.child(Path(segments: [$0.string])) } ?? query.path }
}

/// Makes the events of one view's changes, in the SDKs' order (docs/client-engine.md#views).
enum EventGenerator {
    static func events(
        for changes: [Change], eventCache: Node, registrations: [any EventRegistration], query: QuerySpec
    ) -> [SyncEvent] {
        let index = query.params.index
        var moves: [Change] = []
        let movesWanted = registrations.contains { $0.respondsTo(.childMoved) }
        for change in changes where movesWanted && change.type == .childChanged {
            if let key = change.childKey, let old = change.oldNode,
                index.indexedValueChanged(old: old, new: change.node)
            {
                moves.append(.moved(key, change.node))
            }
        }
        var ordered: IndexedChildren?
        var events: [SyncEvent] = []
        for type in [EventType.childRemoved, .childAdded, .childMoved, .childChanged, .value] {
            // A type no registration listens for costs nothing (no sort, no predecessors).
            guard registrations.contains(where: { $0.respondsTo(type) }) else { continue }
            var ofType = (type == .childMoved ? moves : changes).filter { $0.type == type }
            guard !ofType.isEmpty else { continue }
            if type != .value {
                // Child changes always name their child.
                ofType.sort { a, b in
                    guard let a = a.namedNode, let b = b.namedNode else { return false }
                    return index.compare(a, b) < 0
                }
            }
            for var change in ofType {
                if type == .childAdded || type == .childChanged || type == .childMoved, let child = change.namedNode {
                    // In the node's own order when that is the index's: no sort of every child.
                    if let previous = IndexedChildren.predecessor(of: child, in: eventCache, index: index) {
                        change.previousKey = previous
                    } else {
                        let children = ordered ?? IndexedChildren(eventCache, index: index)
                        ordered = children
                        change.previousKey = children.predecessor(of: child)
                    }
                }
                for registration in registrations where registration.respondsTo(type) {
                    events.append(
                        .data(
                            DataEvent(
                                type: type, registration: registration, query: query, childKey: change.childKey,
                                node: change.node, previousKey: change.previousKey)))
                }
            }
        }
        return events
    }
}
