import RTDBCore

extension DatabaseQuery {
    private func with(_ change: (inout QueryParams) -> Void) -> DatabaseQuery {
        var params = params
        change(&params)
        return DatabaseQuery(database: database, path: path, params: params)
    }

    private static func bound(_ value: Any?, _ key: String?, inclusive: Bool) -> QueryParams.Bound {
        let json = (try? JSONValue(any: value)) ?? .null
        return QueryParams.Bound(
            value: json.isLeaf ? json : .null, name: key.map { ChildKey($0) }, inclusive: inclusive)
    }

    /// Orders by the value of a child.
    public func queryOrdered(byChild key: String) -> DatabaseQuery { with { $0.index = .child(Path(key)) } }
    /// Orders by key.
    public func queryOrderedByKey() -> DatabaseQuery { with { $0.index = .key } }
    /// Orders by value.
    public func queryOrderedByValue() -> DatabaseQuery { with { $0.index = .value } }
    /// Orders by priority.
    public func queryOrderedByPriority() -> DatabaseQuery { with { $0.index = .priority } }

    /// Children at or after a value.
    public func queryStarting(atValue startValue: Any?) -> DatabaseQuery {
        with { $0.start = Self.bound(startValue, nil, inclusive: true) }
    }
    /// Children at or after a value and key.
    public func queryStarting(atValue startValue: Any?, childKey: String?) -> DatabaseQuery {
        with { $0.start = Self.bound(startValue, childKey, inclusive: true) }
    }
    /// Children after a value.
    public func queryStarting(afterValue startValue: Any?) -> DatabaseQuery {
        with { $0.start = Self.bound(startValue, nil, inclusive: false) }
    }
    /// Children after a value and key.
    public func queryStarting(afterValue startValue: Any?, childKey: String?) -> DatabaseQuery {
        with { $0.start = Self.bound(startValue, childKey, inclusive: false) }
    }
    /// Children at or before a value.
    public func queryEnding(atValue endValue: Any?) -> DatabaseQuery {
        with { $0.end = Self.bound(endValue, nil, inclusive: true) }
    }
    /// Children at or before a value and key.
    public func queryEnding(atValue endValue: Any?, childKey: String?) -> DatabaseQuery {
        with { $0.end = Self.bound(endValue, childKey, inclusive: true) }
    }
    /// Children before a value.
    public func queryEnding(beforeValue endValue: Any?) -> DatabaseQuery {
        with { $0.end = Self.bound(endValue, nil, inclusive: false) }
    }
    /// Children equal to a value.
    public func queryEqual(toValue value: Any?) -> DatabaseQuery {
        with {
            $0.start = Self.bound(value, nil, inclusive: true)
            $0.end = Self.bound(value, nil, inclusive: true)
        }
    }
    /// Children equal to a value, from a key.
    public func queryEqual(toValue value: Any?, childKey: String?) -> DatabaseQuery {
        with {
            $0.start = Self.bound(value, childKey, inclusive: true)
            $0.end = Self.bound(value, childKey, inclusive: true)
        }
    }
    /// The first `limit` children.
    public func queryLimited(toFirst limit: UInt) -> DatabaseQuery {
        with {
            $0.limit = Int(limit)
            $0.viewFrom = .left
        }
    }
    /// The last `limit` children.
    public func queryLimited(toLast limit: UInt) -> DatabaseQuery {
        with {
            $0.limit = Int(limit)
            $0.viewFrom = .right
        }
    }

    /// Keeps the location synced even with no listener (persistence: next step of the engine).
    public func keepSynced(_ keepSynced: Bool) {
        let database = database
        let spec = spec
        database.setKeepSynced(spec, keepSynced)
    }
}
