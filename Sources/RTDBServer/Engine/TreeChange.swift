import RTDBCore
import RTDBWire

/// A change applied to a namespace's tree, as the log records it and listens need to hear it.
enum TreeChange {
    /// `node` replaces what is at `path`.
    case set(path: Path, node: Node)
    /// Each node replaces what is at its path relative to `path`.
    case merge(path: Path, children: [(relative: Path, node: Node)])

    /// Where it was made.
    var path: Path {
        switch self {
        case .set(let path, _), .merge(let path, _): return path
        }
    }

    /// How the log records it.
    var kind: LogRecord.Kind {
        if case .set = self { .set } else { .merge }
    }

    /// Each node with the path it is written at.
    var writes: [(path: Path, node: Node)] {
        switch self {
        case .set(let path, let node): [(path, node)]
        case .merge(let path, let children): children.map { (path.child($0.relative), $0.node) }
        }
    }

    /// Calls `body` with each path it writes at, in order (no array made: every write passes).
    func forEachWrittenPath(_ body: (Path) -> Void) {
        switch self {
        case .set(let path, _): body(path)
        case .merge(let path, let children): for child in children { body(path.child(child.relative)) }
        }
    }

    /// `root` with the change made (a new version; `root` stays as it is).
    func applied(to root: Node) -> Node {
        var root = root
        apply(to: &root)
        return root
    }

    /// Makes the change in `root`, in place where nothing else shares its levels.
    func apply(to root: inout Node) {
        switch self {
        case .set(let path, let node):
            root.update(at: path, with: node)
        case .merge(let path, let children):
            for (relative, node) in children { root.update(at: path.child(relative), with: node) }
        }
    }

    /// The change's data as the log keeps it: a set's export JSON, or a merge's object of
    /// relative paths (the time spent encoding goes to ``WriteBreakdown``).
    var recordText: String {
        let encoding = WriteBreakdown.begin()
        defer { WriteBreakdown.end(.encode, since: encoding) }
        switch self {
        case .set(_, let node):
            return node.exportJSONString
        case .merge(_, let children):
            var object = JSONValue.Members()
            for (relative, node) in children { object[CodeUnitString(relative.relativeString)] = node.exportJSON }
            return JSONValue.object(object).jsonString
        }
    }

    /// A set of what `read` makes at `path`, its server values resolved against `root` at `now`.
    ///
    /// - Throws: Why the path cannot be written (`.info`, too deep), or what `read` or the
    ///   resolving threw.
    static func set(
        at path: Path, resolvingAgainst root: Node, now: UnixTime, read: () throws(WireError) -> Node
    ) throws(WireError) -> TreeChange {
        try checkWritable(path)
        let node = try read()
        do {
            return .set(
                path: path,
                node: try node.resolvingServerValues(existingAt: { root.child(at: path) }, now: now, at: path))
        } catch {
            throw WireError(error)
        }
    }

    /// A merge of what `read` makes for each relative path (written at `target`), its server
    /// values resolved against `root` at `now`.
    ///
    /// - Throws: Why the paths cannot be written (`.info`, too deep, overlapping), or what `read`
    ///   or the resolving threw.
    static func merge(
        at path: Path, relatives: [Path], resolvingAgainst root: Node, now: UnixTime,
        read: (_ index: Int, _ target: Path) throws(WireError) -> Node
    ) throws(WireError) -> TreeChange {
        try checkWritable(path)
        do {
            try Validation.validateUpdatePaths(relatives, at: path)
        } catch {
            throw WireError(error)
        }
        var children: [(relative: Path, node: Node)] = []
        children.reserveCapacity(relatives.count)
        for (index, relative) in relatives.enumerated() {
            let target = path.child(relative)
            let node = try read(index, target)
            do {
                let resolved = try node.resolvingServerValues(
                    existingAt: { root.child(at: target) }, now: now, at: target)
                children.append((relative, resolved))
            } catch {
                throw WireError(error)
            }
        }
        return .merge(path: path, children: children)
    }

    /// Refuses a write at `path` under `.info` or deeper than a path may go.
    static func checkWritable(_ path: Path) throws(WireError) {
        if path.isInfo {
            throw WireError(ValidationError.readOnlyPath(path: path.description))
        }
        if path.count > Validation.maxDepth {
            throw WireError(ValidationError.tooDeep(path: path.description, depth: path.count))
        }
    }
}
