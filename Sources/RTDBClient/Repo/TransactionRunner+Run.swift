import RTDBCore
import RTDBWire

extension TransactionRunner {
    /// Starts a transaction (docs/client-engine.md#transactions): run locally now on the best data
    /// known, then send a hash-conditional set, rerunning on `datastale` up to 25 times.
    func start(
        _ path: Path, database: Database, update: @escaping (MutableData) -> TransactionResult,
        completion: (@Sendable ((any Error)?, Bool, DataSnapshot?) -> Void)?, applyLocally: Bool,
        name: String? = nil, pendingID: Int? = nil, retryCount: Int = 0
    ) {
        if path.isInfo {
            let error = DatabaseError(code: .permissionDenied, message: "transactions cannot run under .info")
            if let completion { host.callbackQueue.async { completion(error, false, nil) } }
            return
        }
        let queuedID = pendingID ?? host.userWrites.allocateID()
        if pendingID == nil {
            do throws(DatabaseError) {
                try host.userWrites.queue.add(
                    StoredWrite(
                        id: queuedID, kind: .transaction, path: path, data: .null, name: name, enqueuedAt: host.clock()),
                    persist: name != nil, within: host.userWrites.maxBytes)
            } catch {
                host.logger.error("\(error)")
                if let completion { host.callbackQueue.async { completion(error, false, nil) } }
                return
            }
        }
        // A listener with no callback keeps the location synced so reruns see server data.
        let watcher = ObserverRegistration(
            handle: 0, eventType: .value, database: database, callback: { _, _ in }, cancelCallback: nil)
        host.raise(host.serverTree.addEventRegistration(watcher, for: .default(path)))
        let record = TransactionRecord(
            path: path, update: update, completion: completion, applyLocally: applyLocally, watcher: watcher)
        record.name = name
        record.retryCount = retryCount
        record.pendingID = queuedID
        let input = host.serverTree.calcCompleteEventCache(path)
        guard run(record, input: input, database: database) else { return }
        book.inFlight.append(record)
        sendReady(database: database)
    }

    /// Calls the update block and applies its output as a (possibly hidden) user write.
    ///
    /// Returns false when the transaction ended (aborted or invalid).
    private func run(_ record: TransactionRecord, input: Node, database: Database) -> Bool {
        let data = MutableData(node: input)
        let result = record.update(data)
        guard let output = result.data else {
            finish(record, error: nil, committed: false, node: input, database: database)
            return false
        }
        if let error = output.storage.error {
            let failure = DatabaseError(error)
            finish(record, error: failure, committed: false, node: input, database: database)
            return false
        }
        var raw = output.storage.node
        if raw.priority == nil, let priority = input.priority, !raw.isEmpty { raw = raw.withPriority(priority) }
        record.outputRaw = raw
        record.outputResolved = raw.resolvingServerValues(existing: input, now: host.serverTime)
        record.writeID = host.userWrites.allocateID()
        record.status = .run
        host.raise(
            host.serverTree.applyUserOverwrite(
                record.path, record.outputResolved, writeID: record.writeID, visible: record.applyLocally))
        return true
    }

    private func finish(
        _ record: TransactionRecord, error: DatabaseError?, committed: Bool, node: Node, database: Database
    ) {
        record.status = .completed
        host.userWrites.queue.remove(record.pendingID)
        host.raise(host.serverTree.removeEventRegistration(record.watcher, for: .default(record.path)))
        guard let completion = record.completion else { return }
        let snapshot = DataSnapshot(ref: DatabaseReference(database: database, path: record.path), node: node)
        host.callbackQueue.async { completion(error, committed, snapshot) }
    }

    /// Sends every queue whose transactions are all ready (docs/client-engine.md#transactions).
    func sendReady(database: Database) {
        for (path, records) in book.inFlight.readyToSend {
            let excluded = Set(records.map(\.writeID))
            let latest = host.serverTree.calcCompleteEventCache(path, excluding: excluded)
            let hash = latest.hashString
            for record in records {
                record.status = .sent
                record.retryCount += 1
            }
            // The queue was just checked non-empty (it is a dictionary value kept only while it
            // has records); a guard keeps an empty one from crashing the app's engine.
            guard let attempt = records.last else {
                host.logger.error("transaction queue at \(path) is empty; nothing to send")
                continue
            }
            let payload = attempt.outputRaw
            let key = host.userWrites.ids.key(attempt.pendingID, attempt: attempt.retryCount)
            for record in records {
                // A named transaction remembers what it sent: after a crash, the same attempt is sent
                // again under the same key, so one the server already applied is not applied twice.
                if record.name != nil {
                    host.userWrites.queue.recordAttempt(
                        record.pendingID,
                        [
                            "payload": payload.exportJSON, "hash": .string(hash),
                            "attempt": .int(Int64(attempt.retryCount)),
                        ])
                }
            }
            let data = payload.exportJSON
            // In flight once it is on the wire, as plain writes are: while offline it is queued.
            let pendingIDs = records.map(\.pendingID)
            let onSend: () -> Void = { [weak host] in
                for id in pendingIDs { host?.userWrites.queue.markSent(id) }
            }
            host.logger.debug(
                "transaction at \(path): attempt \(attempt.retryCount) of \(records.count) queued to send")
            host.put(.set, path: path, data: .json { data }, hash: hash, idempotencyKey: key, onSend: onSend) {
                [self, host] status, _ in
                host.logger.debug("transaction at \(path): answered \(status)")
                handleTransactionResponse(path: path, records: records, status: status, database: database)
            }
        }
    }

    private func handleTransactionResponse(
        path: Path, records: [TransactionRecord], status: WireStatus, database: Database
    ) {
        if status.isOK {
            for record in records {
                host.raise(host.serverTree.ackUserWrite(record.writeID))
                finish(record, error: nil, committed: true, node: record.outputResolved, database: database)
            }
        } else if status == .dataStale {
            for record in records {
                record.status = record.status == .sentNeedsAbort ? .needsAbort : .run
            }
        } else {
            for record in records {
                record.status = .needsAbort
                record.abortReason = status
            }
        }
        rerun(at: path, database: database)
    }

    /// Reruns the transactions at `path` on fresh data; aborts those marked or out of retries.
    func rerun(at path: Path, database: Database) {
        guard let records = book.inFlight.records(at: path) else { return }
        let excluded = Set(records.filter { $0.status == .run }.map(\.writeID))
        for record in records {
            switch record.status {
            case .needsAbort:
                host.raise(host.serverTree.ackUserWrite(record.writeID, revert: true))
                let reason = record.abortReason ?? .aborted
                let error = DatabaseError(code: reason, message: "transaction aborted: \(reason)")
                finish(
                    record, error: error, committed: false, node: host.serverTree.calcCompleteEventCache(path),
                    database: database)
            case .run:
                if record.retryCount >= Self.maxRetries {
                    host.raise(host.serverTree.ackUserWrite(record.writeID, revert: true))
                    let error = DatabaseError(code: .maxRetries, message: "transaction had too many retries")
                    finish(
                        record, error: error, committed: false, node: host.serverTree.calcCompleteEventCache(path),
                        database: database)
                } else {
                    let oldWriteID = record.writeID
                    let input = host.serverTree.calcCompleteEventCache(path, excluding: excluded)
                    _ = run(record, input: input, database: database)  // false: it finished (aborted)
                    host.raise(host.serverTree.ackUserWrite(oldWriteID, revert: true))
                }
            case .sent, .sentNeedsAbort, .completed:
                continue
            }
        }
        book.inFlight.removeCompleted(at: path)
        sendReady(database: database)
    }

    /// Server data changed at `path`: rerun the transactions it may affect.
    func rerun(affectedBy path: Path) {
        guard let database else { return }
        for transactionPath in book.inFlight.paths(overlapping: path)
        where book.inFlight.hasRunnable(at: transactionPath) {
            rerun(at: transactionPath, database: database)
        }
    }

    /// A user set or update at `path` aborts overlapping transactions
    /// (docs/client-engine.md#transactions).
    func abort(overlapping path: Path) {
        guard let database else { return }
        for transactionPath in book.inFlight.paths(overlapping: path) {
            for record in book.inFlight.records(at: transactionPath) ?? [] {
                switch record.status {
                case .run:
                    record.status = .needsAbort
                    record.abortReason = .overriddenBySet
                case .sent:
                    record.status = .sentNeedsAbort
                    record.abortReason = .overriddenBySet
                default:
                    break
                }
            }
            rerun(at: transactionPath, database: database)
        }
    }
}
