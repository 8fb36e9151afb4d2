import RTDBCore
import RTDBRules
import RTDBWire

extension DatabaseEngine {
    /// A write over REST, answered once it is stored: what it wrote, and whether the disk took it.
    ///
    /// The write and the wait for it happen in one turn of the engine: a batch refused between
    /// them (its numbers are made again by later writes) would otherwise leave the writer waiting
    /// on a number that now names another write.
    public struct StoredWrite: Sendable {
        /// The write's sequence number.
        public var sequence: UInt64
        /// The push id, for a push.
        public var name: String?
        /// Whether it is on disk (false: refused or given up, never acknowledged).
        public var isStored: Bool
    }

    /// ``set(_:data:expectedHash:idempotencyKey:auth:refusesWithoutStorage:)``, then waits until
    /// the write is stored.
    public func setStored(_ path: Path, data: JSONValue, expectedHash: String? = nil, auth: RuleAuth) async
        -> Result<StoredWrite, WireError>
    {
        await stored(set(path, data: data, expectedHash: expectedHash, auth: auth, refusesWithoutStorage: true))
    }

    /// ``update(_:data:idempotencyKey:auth:refusesWithoutStorage:)``, then waits until the write
    /// is stored.
    public func updateStored(_ path: Path, data: JSONValue.Members, auth: RuleAuth) async
        -> Result<StoredWrite, WireError>
    {
        await stored(update(path, data: data, auth: auth, refusesWithoutStorage: true))
    }

    /// ``push(_:data:auth:refusesWithoutStorage:)``, then waits until the write is stored.
    public func pushStored(_ path: Path, data: JSONValue, auth: RuleAuth) async -> Result<StoredWrite, WireError> {
        switch push(path, data: data, auth: auth, refusesWithoutStorage: true) {
        case .success(let (name, sequence)):
            let isStored = await waitUntilDurable(sequence)
            return .success(StoredWrite(sequence: sequence, name: name, isStored: isStored))
        case .failure(let error):
            return .failure(error)
        }
    }

    private func stored(_ result: Result<UInt64, WireError>) async -> Result<StoredWrite, WireError> {
        switch result {
        case .success(let sequence):
            // Same actor, no hop: the wait is registered before anything else runs here.
            let isStored = await waitUntilDurable(sequence)
            return .success(StoredWrite(sequence: sequence, isStored: isStored))
        case .failure(let error):
            return .failure(error)
        }
    }
}
