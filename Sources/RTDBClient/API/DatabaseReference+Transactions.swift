import RTDBCore

extension DatabaseReference {
    /// Runs `block` atomically against the data here: locally at once, then on the server,
    /// rerunning with fresh data when another writer got in first (up to 25 times).
    public func runTransactionBlock(_ block: @escaping @Sendable (MutableData) -> TransactionResult) {
        runTransactionBlock(block, andCompletionBlock: nil, withLocalEvents: true)
    }

    /// Like ``runTransactionBlock(_:)``; `completion` gets the error, whether it committed, and the
    /// final data.
    public func runTransactionBlock(
        _ block: @escaping @Sendable (MutableData) -> TransactionResult,
        andCompletionBlock completion: (@Sendable ((any Error)?, Bool, DataSnapshot?) -> Void)?
    ) {
        runTransactionBlock(block, andCompletionBlock: completion, withLocalEvents: true)
    }

    /// Like the above; with `withLocalEvents: false` listeners see only the committed result.
    public func runTransactionBlock(
        _ block: @escaping @Sendable (MutableData) -> TransactionResult,
        andCompletionBlock completion: (@Sendable ((any Error)?, Bool, DataSnapshot?) -> Void)?,
        withLocalEvents: Bool
    ) {
        database.repo.runTransaction(
            at: path, database: database, update: block, completion: completion, applyLocally: withLocalEvents)
    }

    /// Runs a transaction and returns whether it committed, with the final data.
    public func runTransactionBlock(_ block: @escaping @Sendable (MutableData) -> TransactionResult) async throws
        -> (committed: Bool, snapshot: DataSnapshot?)
    {
        try await withCheckedThrowingContinuation { continuation in
            runTransactionBlock(block) { error, committed, snapshot in
                if let error {
                    continuation.resume(throwing: error)
                } else {
                    continuation.resume(returning: (committed, snapshot))
                }
            }
        }
    }
}

extension DatabaseReference {
    /// Runs the transaction registered under `name` here; it is kept on disk (with persistence)
    /// and rerun after a restart until it commits or aborts, which no Firebase SDK does.
    ///
    /// Register the name at startup with ``Database/registerTransaction(named:update:completion:)``;
    /// `completion` defaults to the registered one (the only one a resumed transaction can call).
    public func runTransactionBlock(
        named name: String,
        andCompletionBlock completion: (@Sendable ((any Error)?, Bool, DataSnapshot?) -> Void)? = nil
    ) {
        database.repo.runTransaction(named: name, at: path, database: database, completion: completion)
    }
}

extension Database {
    /// Registers a transaction under a name, before its first use and at every start: transactions
    /// of that name left unfinished by an earlier run resume when it is registered.
    public func registerTransaction(
        named name: String, update: @escaping @Sendable (MutableData) -> TransactionResult,
        completion: (@Sendable ((any Error)?, Bool, DataSnapshot?) -> Void)? = nil
    ) {
        repo.register(
            transaction: NamedTransaction(update: update, completion: completion), named: name, database: self)
    }
}
