import RTDBCore

/// One step of putting restored writes back into the local view, in their order: runs of plain
/// sets and removes go to the sync tree together (a long queue's replay is most of a cold start),
/// everything else one at a time.
enum ReplayStep {
    /// Sets and removes without server values, with their nodes, applied together.
    case overwrites([(write: StoredWrite, node: Node)])
    /// A write applied alone: a set whose server values resolve against what the writes before
    /// it made, or an update.
    case one(StoredWrite)
    /// A named transaction's write, held until the app registers the transaction again.
    case heldTransaction(StoredWrite)

    /// The steps that replay `writes` in order.
    static func plan(_ writes: [StoredWrite]) -> [ReplayStep] {
        var steps: [ReplayStep] = []
        var run: [(write: StoredWrite, node: Node)] = []
        func endRun() {
            guard !run.isEmpty else { return }
            steps.append(.overwrites(run))
            run = []
        }
        for write in writes {
            switch write.kind {
            case .set, .remove:
                let node = write.setNode
                if node.containsServerValues {
                    endRun()
                    steps.append(.one(write))
                } else {
                    run.append((write, node))
                }
            case .update:
                endRun()
                steps.append(.one(write))
            case .transaction:
                endRun()
                steps.append(.heldTransaction(write))
            }
        }
        endRun()
        return steps
    }

}
