import RTDBCore

/// Where an operation comes from: the user, the server, or the server for one tagged query.
struct OperationSource {
    var fromUser: Bool
    var fromServer: Bool
    var queryID: String?
    var tagged: Bool

    static let user = OperationSource(fromUser: true, fromServer: false, queryID: nil, tagged: false)
    static let server = OperationSource(fromUser: false, fromServer: true, queryID: nil, tagged: false)
    static func taggedQuery(_ queryID: String) -> OperationSource {
        OperationSource(fromUser: false, fromServer: true, queryID: queryID, tagged: true)
    }
}

/// A change the sync tree applies to its views (docs/client-engine.md#the-sync-tree).
enum Operation {
    case overwrite(source: OperationSource, path: Path, node: Node)
    case merge(source: OperationSource, path: Path, children: ImmutableTree<Node>)
    case ackUserWrite(path: Path, affected: ImmutableTree<Bool>, revert: Bool)
    case listenComplete(source: OperationSource, path: Path)

    var path: Path {
        switch self {
        case .overwrite(_, let path, _), .merge(_, let path, _), .ackUserWrite(let path, _, _),
            .listenComplete(_, let path):
            return path
        }
    }

    var source: OperationSource {
        switch self {
        case .overwrite(let source, _, _), .merge(let source, _, _), .listenComplete(let source, _): return source
        case .ackUserWrite: return .user
        }
    }

    /// The operation as seen by the child `key` (nil when it does not reach that child).
    func forChild(_ key: String) -> Operation? {
        switch self {
        case .overwrite(let source, let path, let node):
            if path.isEmpty { return .overwrite(source: source, path: .root, node: node.child(ChildKey(key))) }
            return .overwrite(source: source, path: path.popFront, node: node)
        case .merge(let source, let path, let children):
            if path.isEmpty {
                let childTree = children.subtree(Path(segments: [key]))
                if childTree.isEmpty { return nil }
                if let value = childTree.value { return .overwrite(source: source, path: .root, node: value) }
                return .merge(source: source, path: .root, children: childTree)
            }
            return .merge(source: source, path: path.popFront, children: children)
        case .ackUserWrite(let path, let affected, let revert):
            if !path.isEmpty { return .ackUserWrite(path: path.popFront, affected: affected, revert: revert) }
            if affected.value != nil { return self }
            return .ackUserWrite(path: .root, affected: affected.subtree(Path(segments: [key])), revert: revert)
        case .listenComplete(let source, let path):
            return .listenComplete(source: source, path: path.isEmpty ? .root : path.popFront)
        }
    }
}
