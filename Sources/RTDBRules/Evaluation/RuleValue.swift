import RTDBCore

/// A value while a rule is evaluated.
enum RuleValue: Sendable {
    case null
    case bool(Bool)
    /// Numbers are doubles, as in JavaScript.
    case number(Double)
    case string(String)
    /// `root`, `data`, `newData` and what their methods return.
    ///
    /// Boxed, as is a pattern: a snapshot is two trees and a path (97 bytes), and every value an
    /// expression passes on would be as large (it is 25 bytes with them boxed).
    indirect case snapshot(RuleSnapshot)
    /// `auth`, `auth.token`, or the `val()` of a location with children.
    case object(JSONValue)
    /// An array literal (`hasChildren(['a', 'b'])`).
    case list([RuleValue])
    /// A regular expression literal.
    indirect case pattern(RulePattern)

    /// A JSON value as a rule sees it: objects stay objects, arrays too.
    init(json: JSONValue) {
        switch json {
        case .null: self = .null
        case .bool(let value): self = .bool(value)
        case .number(let number): self = .number(number.doubleValue)
        case .string(let value): self = .string(value)
        case .array, .object: self = .object(json)
        }
    }

    /// What the value is, for messages.
    var kind: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .snapshot: return "a data snapshot"
        case .object: return "an object"
        case .list: return "an array"
        case .pattern: return "a regular expression"
        }
    }
}

/// The data at one location, as `root`, `data` and `newData` and their children are.
struct RuleSnapshot: Sendable {
    /// The whole tree a snapshot is part of: the data as it is, or as a write would leave it
    /// (made only when asked).
    enum Tree: Sendable {
        case data(Node)
        case afterWrite(RuleTree)

        /// The tree's root node.
        var node: Node {
            switch self {
            case .data(let node): return node
            case .afterWrite(let tree): return tree.node
            }
        }
    }

    /// The whole tree this snapshot is part of (before the write, or as it would be after it).
    let root: Tree
    /// Where in it.
    let path: Path
    /// The node at ``path``, found once.
    let node: Node

    /// The snapshot at `path` of `root`.
    init(root: Tree, path: Path) {
        self.init(root: root, path: path, node: root.node.child(at: path))
    }

    /// The snapshot at `path` of `root`, whose node there the caller has found (`node`).
    init(root: Tree, path: Path, node: Node) {
        self.root = root
        self.path = path
        self.node = node
    }

    /// The snapshot of a location below this one, found from here rather than from the root.
    func child(_ relative: Path) -> RuleSnapshot {
        RuleSnapshot(root: root, path: path.child(relative), node: node.child(at: relative))
    }

    /// The value at the location, as `val()` returns it.
    var value: RuleValue { Self.value(of: node) }

    /// The value of `node`, as `val()` returns it.
    static func value(of node: Node) -> RuleValue {
        if node.isEmpty { return .null }
        if let leaf = node.leafValue {
            switch leaf {
            case .bool(let value): return .bool(value)
            case .number(let number): return .number(number.doubleValue)
            case .string(let value): return .string(value)
            case .serverValue: return .null
            }
        }
        return .object(node.plainJSON())
    }
}
