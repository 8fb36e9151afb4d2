import RTDBCore

/// A transaction the app registered under a name, so that one started under it survives restarts.
struct NamedTransaction {
    var update: @Sendable (MutableData) -> TransactionResult
    var completion: (@Sendable ((any Error)?, Bool, DataSnapshot?) -> Void)?
}

extension TransactionRunner {
    /// Registers a named transaction; transactions of that name restored from disk resume now.
    func register(_ name: String, _ transaction: NamedTransaction, database: Database) {
        book.named.registered[name] = transaction
        let resuming = book.named.held.filter { $0.name == name }
        book.named.held.removeAll { $0.name == name }
        for write in resuming { resumeNamed(write, database: database) }
    }

    /// Starts a transaction under a registered name; it is kept on disk until it ends.
    func runNamed(
        _ name: String, at path: Path, completion: (@Sendable ((any Error)?, Bool, DataSnapshot?) -> Void)?,
        database: Database
    ) {
        guard let transaction = book.named.registered[name] else {
            let error = DatabaseError(
                code: .unknownTransaction,
                message: "no transaction is registered under the name '\(name)'; register it at startup")
            if let completion { host.callbackQueue.async { completion(error, false, nil) } }
            return
        }
        start(
            path, database: database, update: transaction.update, completion: completion ?? transaction.completion,
            applyLocally: true, name: name)
    }

    /// Resumes a named transaction from an earlier run.
    ///
    /// If it had sent an attempt, that exact attempt goes again under the same idempotency key:
    /// our server acknowledges it if it was applied before the crash, and otherwise judges its hash
    /// (`datastale` reruns the transaction on fresh data).
    private func resumeNamed(_ write: StoredWrite, database: Database) {
        guard let name = write.name, let transaction = book.named.registered[name] else { return }
        guard let payload = write.data["payload"], let hash = write.data["hash"]?.stringValue,
            let attempt = write.data["attempt"]?.intValue, let node = try? Node(json: payload, at: write.path)
        else {
            start(
                write.path, database: database, update: transaction.update, completion: transaction.completion,
                applyLocally: true, name: name, pendingID: write.id)
            return
        }
        let writeID = host.userWrites.allocateID()
        let resolved = node.resolvingServerValues(
            existing: host.serverTree.calcCompleteEventCache(write.path), now: host.serverTime)
        host.raise(host.serverTree.applyUserOverwrite(write.path, resolved, writeID: writeID))
        let key = host.userWrites.ids.key(write.id, attempt: Int(attempt))
        let onSend: () -> Void = { [weak host] in host?.userWrites.queue.markSent(write.id) }
        host.put(.set, path: write.path, data: .json { payload }, hash: hash, idempotencyKey: key, onSend: onSend) {
            [self, host] status, data in
            switch host.userWrites.settle(write.id, at: write.path, syncWriteID: writeID, status: status, data: data) {
            case nil:
                if let completion = transaction.completion {
                    let snapshot = DataSnapshot(
                        ref: DatabaseReference(database: database, path: write.path), node: resolved)
                    host.callbackQueue.async { completion(nil, true, snapshot) }
                }
            case (let error, deadLettered: true)?:
                if let completion = transaction.completion {
                    host.callbackQueue.async { completion(error, false, nil) }
                }
            case (_, deadLettered: false)?:
                start(
                    write.path, database: database, update: transaction.update, completion: transaction.completion,
                    applyLocally: true, name: name, pendingID: write.id, retryCount: Int(attempt))
            }
        }
    }
}
