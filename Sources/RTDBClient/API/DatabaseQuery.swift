import Foundation
import RTDBCore
import Synchronization

/// A query on a location: an ordering, a range and a limit, and the listeners on it.
///
/// `@unchecked Sendable` is safe: a query holds only immutable values (its database, path and
/// parameters); the class is not final only so that ``DatabaseReference`` can extend it, as in
/// FirebaseDatabase.
public class DatabaseQuery: @unchecked Sendable {
    /// The database the query belongs to.
    public let database: Database
    let path: Path
    let params: QueryParams

    init(database: Database, path: Path, params: QueryParams = .default) {
        self.database = database
        self.path = path
        self.params = params
    }

    var spec: QuerySpec { QuerySpec(path: path, params: params) }

    /// The location of the query.
    public var ref: DatabaseReference { DatabaseReference(database: database, path: path) }

    // MARK: - Observing

    /// Calls `block` for every event of `eventType`; returns a handle for ``removeObserver(withHandle:)``.
    @discardableResult
    public func observe(_ eventType: DataEventType, with block: @escaping @Sendable (DataSnapshot) -> Void)
        -> DatabaseHandle
    {
        observe(eventType, andPreviousSiblingKeyWith: { snapshot, _ in block(snapshot) }, withCancel: nil)
    }

    /// Like ``observe(_:with:)``, with a callback for when the server cancels the listen.
    @discardableResult
    public func observe(
        _ eventType: DataEventType, with block: @escaping @Sendable (DataSnapshot) -> Void,
        withCancel cancelBlock: (@Sendable (any Error) -> Void)?
    ) -> DatabaseHandle {
        observe(eventType, andPreviousSiblingKeyWith: { snapshot, _ in block(snapshot) }, withCancel: cancelBlock)
    }

    /// Calls `block` with each snapshot and the key of the sibling before it (nil when first).
    @discardableResult
    public func observe(
        _ eventType: DataEventType,
        andPreviousSiblingKeyWith block: @escaping @Sendable (DataSnapshot, String?) -> Void,
        withCancel cancelBlock: (@Sendable (any Error) -> Void)? = nil
    ) -> DatabaseHandle {
        let database = database
        return database.register(spec) { handle in
            ObserverRegistration(
                handle: handle, eventType: eventType, database: database, callback: block, cancelCallback: cancelBlock)
        }
    }

    /// Calls `block` once, for the first event of `eventType`.
    public func observeSingleEvent(of eventType: DataEventType, with block: @escaping @Sendable (DataSnapshot) -> Void)
    {
        let database = database
        let fired = OneShot()
        let handleBox = HandleBox()
        let handle = observe(eventType) { snapshot in
            guard fired.fire() else { return }
            if let handle = handleBox.handle { database.unregister(handle) }
            block(snapshot)
        }
        handleBox.set(handle)
        if fired.hasFired { database.unregister(handle) }
    }

    /// Reads the current value once: from complete local data, else from the server.
    public func getData(completion: @escaping @Sendable ((any Error)?, DataSnapshot?) -> Void) {
        let (spec, ref) = (spec, ref)
        database.repo.getValue(spec) { error, node in
            completion(error, error == nil ? DataSnapshot(ref: ref, node: node, index: spec.params.index) : nil)
        }
    }

    /// Reads the current value once.
    public func getData() async throws -> DataSnapshot {
        try await withCheckedThrowingContinuation { continuation in
            getData { error, snapshot in
                if let snapshot {
                    continuation.resume(returning: snapshot)
                } else {
                    continuation.resume(
                        throwing: error ?? DatabaseError(code: .unknown, message: "no data and no error"))
                }
            }
        }
    }

    /// Removes one listener.
    public func removeObserver(withHandle handle: DatabaseHandle) { database.unregister(handle) }

    /// Removes every listener at this location.
    public func removeAllObservers() { database.unregisterAll(at: path) }

    /// The snapshots of `eventType` events, as an async sequence (the listener ends with it).
    public func snapshots(_ eventType: DataEventType = .value) -> AsyncStream<DataSnapshot> {
        AsyncStream { continuation in
            let handle = observe(eventType) { continuation.yield($0) }
            let database = database
            continuation.onTermination = { _ in database.unregister(handle) }
        }
    }
}

/// Fires once, from any thread.
final class OneShot: Sendable {
    private let fired = Mutex(false)
    func fire() -> Bool {
        fired.withLock { was in
            defer { was = true }
            return !was
        }
    }
    var hasFired: Bool { fired.withLock { $0 } }
}

/// A handle set after registration, read from callbacks.
final class HandleBox: Sendable {
    private let value = Mutex<DatabaseHandle?>(nil)
    func set(_ handle: DatabaseHandle) { value.withLock { $0 = handle } }
    var handle: DatabaseHandle? { value.withLock { $0 } }
}
