extension Node {
    /// Whether any leaf or priority in the tree is an unresolved server value.
    public var containsServerValues: Bool {
        if let deferred = deferredNode, !deferred.mayContainServerValues { return false }
        if case .serverValue? = priority { return true }
        switch storage {
        case .empty: return false
        case .leaf(let value):
            if case .serverValue = value { return true }
            return false
        case .children(let children):
            return children.containsNode { $0.containsServerValues }
        }
    }

    /// Whether any leaf or priority in the tree is an increment: only an increment reads the data
    /// it replaces (a timestamp does not).
    public var containsIncrements: Bool {
        guard containsServerValues else { return false }
        if case .serverValue(.increment)? = priority { return true }
        switch storage {
        case .empty: return false
        case .leaf(let value):
            if case .serverValue(.increment) = value { return true }
            return false
        case .children(let children):
            return children.containsNode { $0.containsIncrements }
        }
    }

    /// The node with every server value replaced, refusing a result no reader could parse.
    ///
    /// An increment past the largest double is not stored as infinity (JSON has no such number).
    /// The server's form of ``resolvingServerValues(existing:now:)``.
    ///
    /// - Throws: ``ValidationError/nonFiniteResult(path:)`` naming the first such location below `path`.
    public func resolvingServerValues(existing: Node, now: UnixTime, at path: Path) throws(ValidationError) -> Node {
        let resolved = resolvingServerValues(existing: existing, now: now)
        if let bad = firstNonFiniteResult(resolved, at: path) {
            throw .nonFiniteResult(path: bad.description)
        }
        return resolved
    }

    /// ``resolvingServerValues(existing:now:at:)`` that asks for the data it replaces only when
    /// this node holds an increment (the only server value that reads it): a plain write's
    /// target, or a timestamp's, is not looked up in the tree.
    public func resolvingServerValues(existingAt existing: () -> Node, now: UnixTime, at path: Path)
        throws(ValidationError) -> Node
    {
        guard containsServerValues else { return self }
        return try resolvingServerValues(existing: containsIncrements ? existing() : .empty, now: now, at: path)
    }

    /// Where a server value of this node resolved (in `resolved`) to a number that is not finite.
    private func firstNonFiniteResult(_ resolved: Node, at path: Path) -> Path? {
        guard containsServerValues else { return nil }
        if case .serverValue? = priority, case .number(let number)? = resolved.priority, !number.isFinite {
            return path
        }
        switch storage {
        case .empty: return nil
        case .leaf:
            if case .number(let number)? = resolved.leafValue, !number.isFinite { return path }
            return nil
        case .children(let children):
            for (key, child) in children {
                if let bad = child.firstNonFiniteResult(resolved.child(key), at: path.child(key.string)) { return bad }
            }
            return nil
        }
    }

    /// The node with every server value replaced (docs/wire-protocol.md#server-values).
    ///
    /// - Parameters:
    ///   - existing: The data currently at the same location; increments add to the number
    ///     found at their exact location in it.
    ///   - now: The server time.
    public func resolvingServerValues(existing: Node, now: UnixTime) -> Node {
        if !containsServerValues { return self }
        var resolvedPriority = priority
        if case .serverValue(let serverValue)? = priority {
            switch serverValue.resolve(now: now, existing: existing.priority?.leafValue) {
            case .number(let number): resolvedPriority = .number(number)
            case .string(let string): resolvedPriority = .string(string)
            default: resolvedPriority = nil
            }
        }
        switch storage {
        case .empty:
            return self
        case .leaf(let value):
            if case .serverValue(let serverValue) = value {
                return Node(serverValue.resolve(now: now, existing: existing.leafValue), priority: resolvedPriority)
            }
            return Node(value, priority: resolvedPriority)
        case .children(let children):
            var resolved = children
            for (key, child) in children where child.containsServerValues {
                resolved = resolved.inserting(
                    child.resolvingServerValues(existing: existing.child(key), now: now), at: key)
            }
            return Node(children: resolved, priority: resolvedPriority)
        }
    }
}
