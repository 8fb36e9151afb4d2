import OrderedCollections
import RTDBCore
import RTDBRules
import RTDBWire

extension DatabaseEngine {
    /// Sets `data` (export-format JSON, server values unresolved) at `path`, if the rules let
    /// `auth` write it (else `permission_denied`).
    ///
    /// - Parameter expectedHash: When given, the write applies only if the current data at `path`
    ///   has this hash (`""` for no data); otherwise it fails with `datastale`.
    /// - Returns: The write's sequence number (``setStored(_:data:expectedHash:auth:)`` waits for
    ///   it to be stored); for a keyed write already applied, the number of that write.
    ///   - idempotencyKey: When given, a write already applied under this key is not applied again:
    ///     the result is the sequence number of the newest write, as for a write just applied.
    ///   - refusesWithoutStorage: Refuse the write (`unavailable`) rather than apply it when the
    ///     namespace's file cannot be opened now; REST asks this, WebSocket writes wait instead.
    public func set(
        _ path: Path, data: JSONValue, expectedHash: String? = nil, idempotencyKey: String? = nil, auth: RuleAuth,
        refusesWithoutStorage: Bool = false
    ) -> Result<UInt64, WireError> {
        set(
            path, expectedHash: expectedHash, idempotencyKey: idempotencyKey, auth: auth,
            refusesWithoutStorage: refusesWithoutStorage
        ) { () throws(WireError) in
            do throws(ValidationError) {
                return try Node(json: data, at: path.writeTarget)
            } catch {
                throw WireError(error)
            }
        }
    }

    /// Sets `node` (server values unresolved) at `path`, as
    /// ``set(_:data:expectedHash:idempotencyKey:auth:refusesWithoutStorage:)`` sets the node its
    /// data makes.
    ///
    /// - Parameter recordText: JSON text that reads back to `node`, which holds no server value
    ///   (``WireWrite/dataText``): the log keeps it rather than an export of the node.
    func set(
        _ path: Path, node: Node, expectedHash: String? = nil, idempotencyKey: String? = nil, auth: RuleAuth,
        recordText: String? = nil
    ) -> Result<UInt64, WireError> {
        set(path, expectedHash: expectedHash, idempotencyKey: idempotencyKey, auth: auth, recordText: recordText) {
            () throws(WireError) in node
        }
    }

    /// The set itself, with the node `read` makes once the key and the path are checked.
    private func set(
        _ path: Path, expectedHash: String?, idempotencyKey: String?, auth: RuleAuth,
        refusesWithoutStorage: Bool = false, recordText: String? = nil, read: () throws(WireError) -> Node
    ) -> Result<UInt64, WireError> {
        let idempotencyKey = idempotencyKey.map { AppliedKeys.scoped($0, by: auth) }
        if let idempotencyKey, let sequence = data.sequence(ofKey: idempotencyKey) { return .success(sequence) }
        do throws(WireError) {
            let converting = WriteBreakdown.begin()
            let change = try TreeChange.set(at: path, resolvingAgainst: data.working, now: clock(), read: read)
            WriteBreakdown.end(.convert, since: converting)
            let judging = WriteBreakdown.begin()
            let newRoot = try authorizeWrite(change.writes, auth: auth, at: path, operation: .set)
            WriteBreakdown.end(.rules, since: judging)
            if let expectedHash, data.working.child(at: path).hashString != expectedHash {
                throw WireError(status: .dataStale, message: "the data at \(path) has changed")
            }
            if refusesWithoutStorage { try requireStorage() }
            apply(change, idempotencyKey: idempotencyKey, newRoot: newRoot, recordText: recordText)
            return .success(data.appliedSequence)
        } catch {
            return .failure(error)
        }
    }

    /// Applies a multi-path update: each key of `data` is a path relative to `path`
    /// (`idempotencyKey` as for ``set(_:data:expectedHash:idempotencyKey:auth:)``), if the rules let
    /// `auth` make all of it.
    public func update(
        _ path: Path, data: JSONValue.Members, idempotencyKey: String? = nil, auth: RuleAuth,
        refusesWithoutStorage: Bool = false
    ) -> Result<UInt64, WireError> {
        update(
            path, relatives: data.keys.map { Path($0.string) }, idempotencyKey: idempotencyKey, auth: auth,
            refusesWithoutStorage: refusesWithoutStorage
        ) { (index, target) throws(WireError) in
            do throws(ValidationError) {
                return try Node(json: data.values[index], at: target.writeTarget)
            } catch {
                throw WireError(error)
            }
        }
    }

    /// Sets each node (server values unresolved) at its path relative to `path`, as
    /// ``update(_:data:idempotencyKey:auth:refusesWithoutStorage:)`` sets the nodes its data makes.
    ///
    /// - Parameter recordText: A JSON object of the relative paths, in order, that reads back to
    ///   the nodes, which hold no server value (``WireWrite/dataText``): the log keeps it.
    func update(
        _ path: Path, children: [(relative: Path, node: Node)], idempotencyKey: String? = nil, auth: RuleAuth,
        recordText: String? = nil
    ) -> Result<UInt64, WireError> {
        update(
            path, relatives: children.map(\.relative), idempotencyKey: idempotencyKey, auth: auth,
            recordText: recordText
        ) { (index, _) throws(WireError) in children[index].node }
    }

    /// The update itself, with the node `read` makes for the `index`th relative path (written at
    /// `target`) once the key and the paths are checked.
    private func update(
        _ path: Path, relatives: [Path], idempotencyKey: String?, auth: RuleAuth, refusesWithoutStorage: Bool = false,
        recordText: String? = nil, read: (_ index: Int, _ target: Path) throws(WireError) -> Node
    ) -> Result<UInt64, WireError> {
        if relatives.isEmpty { return .success(data.appliedSequence) }
        let idempotencyKey = idempotencyKey.map { AppliedKeys.scoped($0, by: auth) }
        if let idempotencyKey, let sequence = data.sequence(ofKey: idempotencyKey) { return .success(sequence) }
        do throws(WireError) {
            let converting = WriteBreakdown.begin()
            let change = try TreeChange.merge(
                at: path, relatives: relatives, resolvingAgainst: data.working, now: clock(), read: read)
            WriteBreakdown.end(.convert, since: converting)
            let judging = WriteBreakdown.begin()
            let newRoot = try authorizeWrite(change.writes, auth: auth, at: path, operation: .update)
            WriteBreakdown.end(.rules, since: judging)
            if refusesWithoutStorage { try requireStorage() }
            apply(change, idempotencyKey: idempotencyKey, newRoot: newRoot, recordText: recordText)
            return .success(data.appliedSequence)
        } catch {
            return .failure(error)
        }
    }

    /// Adds a child under a new push id (REST `POST`), returning the id and sequence number.
    public func push(_ path: Path, data: JSONValue, auth: RuleAuth, refusesWithoutStorage: Bool = false) -> Result<
        (name: String, sequence: UInt64), WireError
    > {
        let name = self.data.pushName(now: clock())
        return set(path.child(name), data: data, auth: auth, refusesWithoutStorage: refusesWithoutStorage).map {
            (name, $0)
        }
    }

    /// Refuses a write (`unavailable`) when the namespace's file cannot be opened now: the file is
    /// made by the first write, so this is where a process out of descriptors first notices.
    private func requireStorage() throws(WireError) {
        do {
            try store.prepareForWrites()
        } catch {
            logger.warning("namespace \(namespace) cannot store writes now: \(error)")
            throw WireError(status: .unavailable, message: "namespace '\(namespace)' cannot store writes now: \(error)")
        }
    }

    /// Applies a resolved change to the working tree and hands it to the flusher, which publishes
    /// it to listens once it is stored.
    ///
    /// `newRoot` is the data with the change made, when the rules made it while judging it;
    /// otherwise the change is made in the working tree in place (no version of it is kept
    /// between batches, see ``DurabilityPipeline/Batch/after``).
    /// `byServer`: the server's own write (an onDisconnect write run), kept if a commit fails.
    /// `recordText`: the change's data as JSON text already (as it came), for the record.
    func apply(
        _ change: TreeChange, idempotencyKey: String? = nil, newRoot: Node? = nil, byServer: Bool = false,
        recordText: String? = nil
    ) {
        let applying = WriteBreakdown.begin()
        defer { WriteBreakdown.end(.apply, since: applying) }
        let record = data.apply(
            change, newRoot: newRoot, idempotencyKey: idempotencyKey, recordText: recordText, volatile: store.isVolatile
        )
        countsChanged()
        change.forEachWrittenPath(markDirty)
        log(DurabilityPipeline.Applied(record: record, change: change, byServer: byServer))
    }
}
