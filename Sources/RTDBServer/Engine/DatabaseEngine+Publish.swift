import RTDBCore
import RTDBRules
import RTDBWire

extension DatabaseEngine {
    /// Stored writes reach readers, in order: the served tree moves to `after` (the working tree
    /// with them made), each listen they touch hears them, and then their writers are
    /// acknowledged (a client hears the data before the `ok`).
    ///
    /// The tree as each write left it is made only for the writes something looks at: a listen
    /// it touches, read rules that look at data. The writes before such
    /// a one are made in the served tree first, so that it sees exactly the writes up to its own.
    /// The last write leaves the tree as `after`, which is not made again.
    func publish(_ writes: [DurabilityPipeline.Applied], upTo after: Node) {
        var behind: [TreeChange] = []
        for (index, write) in writes.enumerated() {
            let publishing = WriteBreakdown.begin()
            let affected: [Listen]
            switch write.change {
            case .set(let path, _): affected = listens.affected(by: path)
            // A merge touches only its children: a listen beside them, under the merge's path, is not told.
            case .merge(let path, let children):
                affected = listens.affected(by: children.map { path.child($0.relative) })
            }
            if !affected.isEmpty || rules.readsDependOnData {
                var current = data.served
                for change in behind { current = change.applied(to: current) }
                behind = []
                let before = current
                data.served = index == writes.count - 1 ? after : write.change.applied(to: current)
                for listen in affected {
                    deliver(write.change, to: listen, before: before, after: data.served)
                }
                // Read rules that look at data can be changed by any write.
                if rules.readsDependOnData { revokeListensNoLongerAllowed(listens.all) }
            } else {
                behind.append(write.change)
            }
            WriteBreakdown.end(.publish, since: publishing)
            let acknowledging = WriteBreakdown.begin()
            for acknowledgement in durability.acknowledgements(of: write.record.sequence) {
                respond(acknowledgement.number, .success(""), to: acknowledgement.outlet)
            }
            WriteBreakdown.end(.acknowledge, since: acknowledging)
            WriteBreakdown.published(1)
        }
        data.served = after
        metrics.changes.signal()
    }

    /// Refuses a batch the disk did not take; returns how many writes were refused.
    ///
    /// The engine goes back to the stored tree, the batch's writes and those applied after it are
    /// refused (`unavailable`; REST 503), the onDisconnect changes of live sessions go back to
    /// what is stored for them, and the server's own writes are applied again to be tried with
    /// the next batch.
    func refuse(_ batch: DurabilityPipeline.Batch) -> Int {
        let refusal = durability.refuse(batch)
        data.rollBack(to: durability.durableSequence)
        for acknowledgement in refusal.acknowledgements {
            respond(acknowledgement.number, .failure(.notStored), to: acknowledgement.outlet)
        }
        for (outletID, record) in refusal.onDisconnectRestored { sessions.restore(outletID: outletID, to: record) }
        for held in refusal.released { held.outlet.send(held.item) }
        for write in refusal.kept { apply(write.change, byServer: true) }
        return refusal.refused
    }
}

extension WireError {
    /// A write (or onDisconnect change) the namespace's disk did not take: nothing was applied,
    /// and the client may send it again later.
    static let notStored = WireError(
        status: .unavailable,
        message: "the database could not store the write (its disk failed); nothing was applied, try again later")
}
