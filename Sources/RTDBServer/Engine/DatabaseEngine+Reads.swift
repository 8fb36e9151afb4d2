import RTDBCore
import RTDBRules
import RTDBWire

/// Reads see every write applied before them.
///
/// Writes are applied to the working tree at once, but readers are answered from the stored tree,
/// which moves on only when a batch is on disk. So that a read handled after a write sees it, the
/// read waits until the writes applied before it at, above or below its location are published
/// (a group commit; every write when the read rules look at data), and is then judged and
/// answered on the stored tree. A refused batch ends the wait at once, and the read is answered
/// without the refused writes: no reader sees a write the disk did not take. A read nothing
/// pending touches is answered at once.
extension DatabaseEngine {
    /// The newest write applied before now that a read at `path` must see and that is not
    /// published yet, or nil when there is none (a store that keeps nothing publishes at once;
    /// once a stop has given up on the disk, nothing pending will be stored).
    func unpublishedWrite(touching path: Path) -> UInt64? {
        if path.isInfo || store.isVolatile || durability.flusher.stopGaveUp { return nil }
        // Read rules that look at data can be changed by any write.
        if rules.readsDependOnData {
            let applied = data.appliedSequence
            return applied > durability.durableSequence ? applied : nil
        }
        return durability.newestUnpublished(touching: path)
    }

    /// Returns once the writes applied so far that a read at `path` must see are published, or
    /// refused (its answer then comes from what is stored).
    func waitForWrites(before path: Path) async {
        guard let sequence = unpublishedWrite(touching: path) else { return }
        waiters.reads += 1
        countsChanged()
        defer {
            waiters.reads -= 1
            countsChanged()
        }
        // Registered in this turn of the engine, so the number names the write it was taken for.
        await waitUntilDurable(sequence)
    }

    /// The data at `path` (and the query's result when one is given), with every write applied
    /// before the call, and the newest stored write's sequence number.
    ///
    /// - Throws: `permission_denied` when the rules do not let `auth` read `path` (judged on the
    ///   data the answer comes from).
    public func read(_ path: Path, query: QueryParams? = nil, auth: RuleAuth) async throws(WireError)
        -> (node: Node, result: Node, sequence: UInt64)
    {
        await waitForWrites(before: path)
        return try readStored(path, query: query, auth: auth)
    }

    /// ``read(_:query:auth:)`` from the stored tree as it is now, without waiting.
    func readStored(_ path: Path, query: QueryParams? = nil, auth: RuleAuth) throws(WireError)
        -> (node: Node, result: Node, sequence: UInt64)
    {
        try authorizeRead(path, auth: auth, operation: .read)
        let node = data.served.child(at: path)
        let result = query.map { $0.loadsAllData ? node : $0.filter(node) } ?? node
        return (node, result, durability.durableSequence)
    }

    /// The data at `path` as stored and the newest stored write's sequence number, without a
    /// rules check: for what a request may see whatever the read rules say (the echo of its own
    /// write, once stored).
    func snapshot(_ path: Path) -> (node: Node, sequence: UInt64) {
        (data.served.child(at: path), durability.durableSequence)
    }

    /// Registers a Server-Sent Events stream at `path` and sends the initial `put`, with every
    /// write applied before the call, if the read rules let `auth` read there.
    public func addStream(outlet: Outlet, path: Path, query: QueryParams, export: Bool, auth: RuleAuth)
        async throws(WireError)
    {
        await waitForWrites(before: path)
        try addListen(
            outlet: outlet, path: path, query: query, format: .serverSentEvents(export: export), hash: nil, auth: auth)
    }
}

extension ClientRequest {
    /// Where the request reads (a listen, a get), or nil for any other request.
    var readPath: Path? {
        switch self {
        case .listen(let path, _, _, _), .get(let path, _): return path
        default: return nil
        }
    }
}
