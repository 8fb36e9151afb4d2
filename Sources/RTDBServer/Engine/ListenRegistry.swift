import RTDBCore
import RTDBRules

/// How a listen's updates are delivered.
public enum ListenFormat: Sendable, Hashable {
    /// Protocol v5 pushes, tagged when the query has a range or limit.
    case websocket(tag: Int?)
    /// REST streaming events (`put`/`patch`), with priorities when `export` is set.
    case serverSentEvents(export: Bool)
}

/// One active listen: an outlet watching a query at a path.
struct Listen: Sendable {
    struct Key: Hashable, Sendable {
        var outlet: Int
        var path: Path
        var queryIdentifier: String
    }

    var key: Key
    var outlet: Outlet
    var path: Path
    var query: QueryParams
    var format: ListenFormat
    /// Who listens, for the read rules (checked again when they or the credential change).
    var auth: RuleAuth
    /// The last result sent, for queries with a range or limit (they are sent as differences).
    var lastResult: Node
}

/// The listens of a namespace, indexed by path so that a write finds the listens at, above and
/// below it without looking at the others.
struct ListenRegistry: Sendable {
    private struct Branch: Sendable {
        var listens: [Listen.Key: Listen] = [:]
        var children: [CodeUnitString: Branch] = [:]
        var isEmpty: Bool { listens.isEmpty && children.isEmpty }
    }

    private var root = Branch()
    private var keysByOutlet: [Int: Set<Listen.Key>] = [:]
    private(set) var count = 0

    mutating func insert(_ listen: Listen) {
        if Self.modify(&root, listen.path.segments[...], { $0.listens.updateValue(listen, forKey: listen.key) }) == nil
        {
            count += 1
        }
        keysByOutlet[listen.key.outlet, default: []].insert(listen.key)
    }

    @discardableResult
    mutating func remove(_ key: Listen.Key) -> Listen? {
        let removed = Self.modify(&root, key.path.segments[...]) { $0.listens.removeValue(forKey: key) }
        if removed != nil {
            count -= 1
            keysByOutlet[key.outlet]?.remove(key)
            if keysByOutlet[key.outlet]?.isEmpty == true { keysByOutlet[key.outlet] = nil }
        }
        return removed
    }

    func count(of outlet: Int) -> Int { keysByOutlet[outlet]?.count ?? 0 }

    /// The listens of one outlet.
    func listens(of outlet: Int) -> [Listen] {
        (keysByOutlet[outlet] ?? []).compactMap { key in Self.branch(root, key.path.segments[...])?.listens[key] }
    }

    /// Every listen.
    var all: [Listen] {
        var result: [Listen] = []
        Self.collect(root, into: &result)
        return result
    }

    /// Changes who a listen's reader is.
    mutating func setAuth(_ auth: RuleAuth, for key: Listen.Key) {
        _ = Self.modify(&root, key.path.segments[...]) { $0.listens[key]?.auth = auth }
    }

    private static func branch(_ branch: Branch, _ segments: ArraySlice<String>) -> Branch? {
        guard let front = segments.first else { return branch }
        return branch.children[CodeUnitString(front)].flatMap { Self.branch($0, segments.dropFirst()) }
    }

    mutating func removeAll(outlet: Int) {
        for key in keysByOutlet[outlet] ?? [] { remove(key) }
    }

    mutating func setLastResult(_ result: Node, for key: Listen.Key) {
        _ = Self.modify(&root, key.path.segments[...]) { $0.listens[key]?.lastResult = result }
    }

    /// The listens whose data a write at `path` can change: at or above it, and below it.
    func affected(by path: Path) -> [Listen] {
        var result: [Listen] = []
        var branch = root
        result.append(contentsOf: branch.listens.values)
        for segment in path.segments {
            guard let next = branch.children[CodeUnitString(segment)] else { return result }
            branch = next
            result.append(contentsOf: branch.listens.values)
        }
        for child in branch.children.values { Self.collect(child, into: &result) }
        return result
    }

    /// The listens writes at any of `paths` can change, each once.
    func affected(by paths: [Path]) -> [Listen] {
        guard paths.count > 1 else { return paths.first.map { affected(by: $0) } ?? [] }
        var seen = Set<Listen.Key>()
        var result: [Listen] = []
        for path in paths {
            for listen in affected(by: path) where seen.insert(listen.key).inserted { result.append(listen) }
        }
        return result
    }

    private static func collect(_ branch: Branch, into result: inout [Listen]) {
        result.append(contentsOf: branch.listens.values)
        for child in branch.children.values { collect(child, into: &result) }
    }

    private static func modify<T>(
        _ branch: inout Branch, _ segments: ArraySlice<String>, _ body: (inout Branch) -> T
    ) -> T {
        guard let front = segments.first.map({ CodeUnitString($0) }) else { return body(&branch) }
        var child = branch.children.removeValue(forKey: front) ?? Branch()
        let result = modify(&child, segments.dropFirst(), body)
        branch.children[front] = child.isEmpty ? nil : child
        return result
    }
}
