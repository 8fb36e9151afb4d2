import RTDBClient
import RTDBCore
import Synchronization

/// One device's presence: the documentation's sample app, made robust.
///
/// On every connect it adds an entry under `users/<user>/connections`, registering its removal
/// and the user's `lastOnline` timestamp with onDisconnect **before** writing the entry (the
/// order the documentation asks for). Beyond the sample:
/// - an entry left by this device's previous connection (one the server has not yet seen die, as
///   after a flap) is removed on reconnect, so flapping leaves no ghosts;
/// - so is an entry whose write a previous run left in the persistent queue: the app died before
///   the server took it, so the server ran its onDisconnect removal before the write arrives, and
///   the replayed write would otherwise leave an entry nobody removes (known from the queue as
///   ``start()`` finds it, since the write may be acknowledged before the session hears it is
///   connected);
/// - the entry names the device and carries the server's connect time;
/// - ``stop()`` signs out cleanly: the entry goes and `lastOnline` is written at once;
/// - a connect whose writes or onDisconnects could not be stored (the server's disk failed,
///   `unavailable`, or this device's, `store_failed`) is made again after ``retryDelay``, until
///   one is stored, so a full disk for a while does not leave an online device absent or its
///   entry without its removal; so is the removal of a stale entry (found by the chaos sweep,
///   seed 588673161: an earlier connection's entry, replayed from the queue while this device's
///   disk was full, stayed beside the new one).
public final class PresenceSession: Sendable {
    /// The user this device belongs to.
    public let userID: String
    /// The device's name, written into its connection entry.
    public let device: String
    private let database: Database
    private let root: String
    /// How long a connect whose writes could not be stored waits before it is made again.
    public let retryDelay: Duration
    private let state = Mutex(State())

    private struct State {
        var handle: DatabaseHandle?
        var entryKey: String?
        /// Entries to remove at the next connect: those whose writes a previous run left queued,
        /// as ``start()`` found them, and stale ones whose removal a disk did not store.
        var leftovers: [Path] = []
        var connects = 0
        var armedConnect = 0
        var retriedConnect = 0
    }

    /// Makes a session for `device` of `userID` under `root` (default `users`, as documented).
    public init(
        database: Database, userID: String, device: String, root: String = "users", retryDelay: Duration = .seconds(1)
    ) {
        self.database = database
        self.userID = userID
        self.device = device
        self.root = root
        self.retryDelay = retryDelay
    }

    private var connectionsRef: DatabaseReference {
        database.reference(withPath: "\(root)/\(userID)/connections")
    }

    private var lastOnlineRef: DatabaseReference { database.reference(withPath: "\(root)/\(userID)/lastOnline") }

    /// The key of this device's current connection entry, once it has connected.
    public var entryKey: String? { state.withLock { $0.entryKey } }

    /// How many times the session has (re)connected.
    public var connectCount: Int { state.withLock { $0.connects } }

    /// Whether the server has taken this connection's `lastOnline` onDisconnect, so that the end
    /// of the connection's session writes `lastOnline` (false between a connect and that answer).
    public var isArmed: Bool { state.withLock { $0.connects > 0 && $0.armedConnect == $0.connects } }

    /// Starts following `.info/connected`; call it as the app opens its database, before the
    /// queue a previous run left can be sent.
    public func start() {
        let leftovers = queuedEntries()
        state.withLock { $0.leftovers = leftovers }
        let handle = database.reference(withPath: ".info/connected").observe(.value) { [self] snapshot in
            guard snapshot.value as? Bool ?? false else { return }
            connected()
        }
        state.withLock { $0.handle = handle }
    }

    private func connected() {
        let entry = connectionsRef.childByAutoId()
        let (previous, leftovers, connect) = state.withLock { state -> (String?, [Path], Int) in
            defer {
                state.entryKey = entry.key
                state.leftovers = []
                state.connects += 1
            }
            return (state.entryKey, state.leftovers, state.connects + 1)
        }
        // Removals are queued after the writes they undo, so the server takes them in that order.
        var stale = previous.map { [connectionsPath.child($0)] } ?? []
        for path in leftovers + queuedEntries() where !stale.contains(path) { stale.append(path) }
        for path in stale {
            database.reference(withPath: path.description).removeValue { [self] error, _ in
                // Not stored (a full disk): removed again with the connect made again.
                guard Self.wasNotStored(error) else { return }
                state.withLock { state in
                    if !state.leftovers.contains(path) { state.leftovers.append(path) }
                }
                retryIfNotStored(error, connect)
            }
        }
        // Both onDisconnects before the entry: once the server shows the entry, the end of this
        // session both removes it and writes `lastOnline`.
        entry.onDisconnectRemoveValue { [self] error, _ in retryIfNotStored(error, connect) }
        lastOnlineRef.onDisconnectSetValue(ServerValue.timestamp()) { [self] error, _ in
            guard error == nil else { return retryIfNotStored(error, connect) }
            state.withLock { state in
                if state.connects == connect { state.armedConnect = connect }
            }
        }
        entry.setValue(["device": device, "connectedAt": ServerValue.timestamp()], andPriority: nil) {
            [self] error, _ in retryIfNotStored(error, connect)
        }
    }

    /// Makes connect `connect` again after ``retryDelay`` when `error` says a disk did not store
    /// one of its writes (once per connect, and only if it is still the current one).
    private func retryIfNotStored(_ error: (any Error)?, _ connect: Int) {
        guard Self.wasNotStored(error) else { return }
        let first = state.withLock { state -> Bool in
            guard state.connects == connect, state.retriedConnect != connect else { return false }
            state.retriedConnect = connect
            return true
        }
        guard first else { return }
        let delay = retryDelay
        let time = database.time
        Task { [weak self] in
            try? await time.sleep(for: delay)
            guard let self, state.withLock({ $0.connects == connect && $0.handle != nil }) else { return }
            connected()
        }
    }

    /// Whether `error` says a disk did not store a write (the server's, `unavailable`, or this
    /// device's, `store_failed`).
    private static func wasNotStored(_ error: (any Error)?) -> Bool {
        guard let code = (error as? DatabaseError)?.code else { return false }
        return code == .unavailable || code == .storeFailed
    }

    private var connectionsPath: Path { Path("\(root)/\(userID)/connections") }

    /// The entries whose writes wait in the queue: a previous run's, replayed after a restart, or
    /// an earlier connection's of this run.
    private func queuedEntries() -> [Path] {
        let connections = connectionsPath
        return database.pendingWrites.compactMap { write in
            let path = Path(write.path)
            return write.kind != .remove && path.parent == connections ? path : nil
        }
    }

    /// Stops following the connection and signs the device out: its entry is removed and
    /// `lastOnline` written now (sent when next connected, if offline).
    public func stop() {
        let (handle, key) = state.withLock { state in
            defer {
                state.handle = nil
                state.entryKey = nil
            }
            return (state.handle, state.entryKey)
        }
        if let handle { database.reference(withPath: ".info/connected").removeObserver(withHandle: handle) }
        guard let key else { return }
        let entry = connectionsRef.child(key)
        entry.cancelDisconnectOperations()
        entry.removeValue()
        lastOnlineRef.cancelDisconnectOperations()
        lastOnlineRef.setValue(ServerValue.timestamp(), andPriority: nil)
    }
}
