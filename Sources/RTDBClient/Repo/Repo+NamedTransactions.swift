import RTDBCore

/// A transaction the app registered under a name, so that one started under it survives restarts.
struct NamedTransaction {
    var update: @Sendable (MutableData) -> TransactionResult
    var completion: (@Sendable ((any Error)?, Bool, DataSnapshot?) -> Void)?
}

extension Repo {
    /// Registers a named transaction; transactions of that name restored from disk resume now.
    func registerTransaction(_ name: String, _ transaction: NamedTransaction, database: Database) {
        transactions.named.registered[name] = transaction
        let resuming = transactions.named.held.filter { $0.name == name }
        transactions.named.held.removeAll { $0.name == name }
        for write in resuming { resumeNamedTransaction(write, database: database) }
    }

    /// Starts a transaction under a registered name; it is kept on disk until it ends.
    func runNamedTransaction(
        _ name: String, at path: Path, completion: (@Sendable ((any Error)?, Bool, DataSnapshot?) -> Void)?,
        database: Database
    ) {
        guard let transaction = transactions.named.registered[name] else {
            let error = DatabaseError(
                code: .unknownTransaction,
                message: "no transaction is registered under the name '\(name)'; register it at startup")
            if let completion { callbackQueue.async { completion(error, false, nil) } }
            return
        }
        startTransaction(
            path, database: database, update: transaction.update, completion: completion ?? transaction.completion,
            applyLocally: true, name: name)
    }

    /// Resumes a named transaction from an earlier run.
    ///
    /// If it had sent an attempt, that exact attempt goes again under the same idempotency key:
    /// our server acknowledges it if it was applied before the crash, and otherwise judges its hash
    /// (`datastale` reruns the transaction on fresh data).
    private func resumeNamedTransaction(_ write: StoredWrite, database: Database) {
        guard let name = write.name, let transaction = transactions.named.registered[name] else { return }
        guard let payload = write.data["payload"], let hash = write.data["hash"]?.stringValue,
            let attempt = write.data["attempt"]?.intValue, let node = try? Node(json: payload, at: write.path)
        else {
            startTransaction(
                write.path, database: database, update: transaction.update, completion: transaction.completion,
                applyLocally: true, name: name, pendingID: write.id)
            return
        }
        let writeID = allocateWriteID()
        let resolved = node.resolvingServerValues(
            existing: serverTree.calcCompleteEventCache(write.path), now: serverTime)
        raise(serverTree.applyUserOverwrite(write.path, resolved, writeID: writeID))
        let key = writeIDs.key(write.id, attempt: Int(attempt))
        let onSend: () -> Void = { [weak self] in self?.pendingWrites.markSent(write.id) }
        put(.set, path: write.path, data: .json { payload }, hash: hash, idempotencyKey: key, onSend: onSend) {
            [self] status, data in
            switch settle(write.id, at: write.path, syncWriteID: writeID, status: status, data: data) {
            case nil:
                if let completion = transaction.completion {
                    let snapshot = DataSnapshot(
                        ref: DatabaseReference(database: database, path: write.path), node: resolved)
                    callbackQueue.async { completion(nil, true, snapshot) }
                }
            case (let error, deadLettered: true)?:
                if let completion = transaction.completion { callbackQueue.async { completion(error, false, nil) } }
            case (_, deadLettered: false)?:
                startTransaction(
                    write.path, database: database, update: transaction.update, completion: transaction.completion,
                    applyLocally: true, name: name, pendingID: write.id, retryCount: Int(attempt))
            }
        }
    }
}
