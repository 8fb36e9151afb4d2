import DequeModule
import Foundation
import Logging
import OrderedCollections
import RTDBCore
import RTDBWire

/// The user writes not yet acknowledged, in order, and the dead letters (writes the server refused).
///
/// Mirrored on disk when persistence is on; used only on the repo's queue.
final class PendingWriteQueue {
    struct Entry {
        var write: StoredWrite
        var state: PendingWrite.State
        var bytes: Int
        /// The path as the public view shows it, made by the first snapshot that shows it and
        /// kept: the view is made again for every snapshot, and a queue of 10,000 is published on
        /// every turn that changes it (a start that restores the queue makes none).
        var pathText: String?

        init(write: StoredWrite, state: PendingWrite.State, bytes: Int) {
            self.write = write
            self.state = state
            self.bytes = bytes
        }
    }

    struct Letter {
        var write: StoredWrite
        var bytes: Int
        var status: WireStatus
        var reason: String
        var failedAt: UnixTime
    }

    /// The writes by id, with `order` keeping their order.
    ///
    /// Acks mostly remove the oldest write, so the order is a deque trimmed from the front, and
    /// ids removed elsewhere are skipped when read (an ordered dictionary would shift every entry
    /// on each ack).
    private var entries: [Int: Entry] = [:]
    /// The bytes the queued writes' data takes, as stored (JSON text).
    private(set) var bytes = 0
    private var order = Deque<Int>()
    /// The last snapshot, and how many of its oldest writes left the queue since.
    ///
    /// While only the oldest leave (a draining queue's acknowledgements), the next snapshot is
    /// the rest of it, not made anew from every entry. Nil after any other change.
    private var lastSnapshot: (views: [PendingWrite], gone: Int)?
    private(set) var letters = OrderedDictionary<Int, Letter>()
    let store: ClientStore?
    let logger: Logger
    /// Why new and queued writes are held back, if they are.
    private(set) var pauseReason: String?
    /// Why persistence, though asked for, has no store (its file could not be opened): every
    /// write is refused then, as on a full disk.
    var unusableStore: StoreFailure?
    /// Called after every change (the repo publishes a snapshot from it).
    var onChange: () -> Void = {}
    /// Asks the repo to save what ``takeUnsaved()`` gives, later and in a batch (the repo sets it
    /// whenever there is a store).
    var requestFlush: (() -> Void)?
    /// Acknowledged writes whose rows are still on disk, and attempt counts not yet saved.
    private var unsavedRemovals: [Int] = []
    private var unsavedAttempts: [Int: Int] = [:]

    init(store: ClientStore?, logger: Logger) {
        self.store = store
        self.logger = logger
    }

    var isEmpty: Bool { entries.isEmpty }

    /// The id of the oldest write still waiting, if any.
    var oldestID: Int? { order.first { entries[$0] != nil } }

    /// Loads the queue and dead letters saved by an earlier run, handing the writes to `replay` a
    /// chunk at a time as they come off the disk (in id order, each chunk in the queue already);
    /// returns how many there were.
    ///
    /// - Throws: What reading the file threw: the queue then holds none of them (`replay` has
    ///   been given those read before, which the caller takes back).
    func restore(_ replay: ([StoredWrite]) -> Void) throws -> Int {
        guard let store else { return 0 }
        let read = store.readWrites()
        defer { read.stop() }
        lastSnapshot = nil
        // The restored writes are the order's new tail (it only grows while they are read).
        let start = order.count
        do {
            while let chunk = try read.next() {
                for write in chunk {
                    let size = write.dataText.utf8.count
                    entries[write.id] = Entry(write: write, state: state(for: write), bytes: size)
                    order.append(write.id)
                    // Kept even past the bound (it may have been lowered): nothing accepted is dropped.
                    bytes += size
                }
                replay(chunk)
            }
            for (write, failedAt, status, reason) in try store.loadDeadLetters() {
                letters[write.id] = Letter(
                    write: write, bytes: write.data.jsonString.utf8.count, status: WireStatus(rawValue: status),
                    reason: reason,
                    failedAt: failedAt)
            }
        } catch {
            for id in order[start...] { if let entry = entries.removeValue(forKey: id) { bytes -= entry.bytes } }
            order.removeLast(order.count - start)
            lastSnapshot = nil
            throw error
        }
        onChange()
        return order.count - start
    }

    private func state(for write: StoredWrite) -> PendingWrite.State {
        pauseReason.map { .paused(reason: $0) } ?? .queued
    }

    /// Adds a write unless it would take the queue past `bound` bytes; with persistence it is on
    /// disk when this returns (with `persist` false, only its id is).
    ///
    /// - Throws: `queue_full`, naming the queue's size and bound, when the write does not fit;
    ///   `store_failed` when this device's store cannot save it (a full disk): nothing is queued
    ///   then.
    func add(_ write: StoredWrite, persist: Bool = true, within bound: Int) throws(DatabaseError) {
        let text = write.dataText
        let size = text.utf8.count
        guard bytes + size <= bound else {
            throw DatabaseError(
                code: .queueFull,
                message:
                    "the write queue holds \(bytes) bytes and its bound is \(bound) (persistenceMaxPendingBytes); this write of \(size) bytes would pass it, so it was neither applied nor queued. Writes are taken again as the queue drains"
            )
        }
        if let unusableStore {
            throw DatabaseError(
                code: .storeFailed,
                message:
                    "this device's store is not usable (\(unusableStore.reason)), so the write was neither applied nor queued"
            )
        }
        if let store {
            do {
                if persist {
                    try store.insertWrite(write, dataText: text)
                } else {
                    // Kept in memory only, but its id is spent for good (``ClientStore/noteWriteID(_:)``).
                    try store.noteWriteID(write.id)
                }
            } catch {
                throw DatabaseError(
                    code: .storeFailed,
                    message:
                        "this device's store could not save the write (\(error)), so it was neither applied nor queued; writes queued before it are kept and still sent"
                )
            }
        }
        entries[write.id] = Entry(write: write, state: state(for: write), bytes: size)
        order.append(write.id)
        lastSnapshot = nil
        bytes += size
        onChange()
    }

    func markSent(_ id: Int) {
        guard let index = entries.index(forKey: id) else { return }
        // Changed where it lies, in one access: copied out and back, every field of the write
        // was retained and released, and a restart hands thousands over at once.
        let (attempts, saved) = Self.markInFlight(&entries.values[index])
        lastSnapshot = nil
        if store != nil, saved {
            unsavedAttempts[id] = attempts
            scheduleFlush()
        }
        onChange()
    }

    /// Marks `entry` in flight, one attempt more; its attempts, and whether they are saved (a
    /// transaction's are only when it is named).
    private static func markInFlight(_ entry: inout Entry) -> (attempts: Int, saved: Bool) {
        entry.state = .inFlight
        entry.write.attempts += 1
        return (entry.write.attempts, entry.write.name != nil || entry.write.kind != .transaction)
    }

    /// Saves what a named transaction last sent (to send it again after a restart).
    func recordAttempt(_ id: Int, _ data: JSONValue) {
        guard entries[id] != nil else { return }
        entries[id]?.write.data = data
        lastSnapshot = nil
        do {
            try store?.setData(id, data)
        } catch {
            logger.error("persistence: saving transaction \(id) failed: \(error)")
        }
    }

    /// The connection dropped: whatever was in flight waits again.
    func markAllQueued() {
        var changed = false
        for (id, entry) in entries where entry.state == .inFlight {
            entries[id]?.state = state(for: entry.write)
            changed = true
        }
        if changed {
            lastSnapshot = nil
            onChange()
        }
    }

    /// Holds back every queued write (nil resumes them).
    ///
    /// Writes in flight are held too: the server answers those that reached it after it revoked
    /// the credential with `expired_token`, and they go out again with the new one (those it
    /// applied before leave the queue when their acknowledgement arrives).
    func setPaused(_ reason: String?) {
        guard reason != pauseReason else { return }
        pauseReason = reason
        lastSnapshot = nil
        for (id, entry) in entries where entry.state != .inFlight || reason != nil {
            entries[id]?.state = state(for: entry.write)
        }
        onChange()
    }

    /// The server acknowledged the write.
    func remove(_ id: Int) {
        guard let entry = take(id) else { return }
        if store != nil, entry.write.kind != .transaction || entry.write.name != nil {
            // Safe to save late: a write whose row outlives a crash is sent again under its
            // idempotency key, and the server acknowledges it without applying it twice.
            unsavedRemovals.append(id)
            unsavedAttempts[id] = nil
            scheduleFlush()
        }
        onChange()
    }

    /// The server refused the write: it moves to the dead letters with the reason.
    func deadLetter(_ id: Int, status: WireStatus, reason: String, at time: UnixTime) {
        guard let entry = take(id) else { return }
        do {
            try store?.insertDeadLetter(entry.write, failedAt: time, status: status.rawValue, reason: reason)
            try store?.removeWrite(id)
        } catch {
            logger.error("persistence: moving write \(id) to the dead letters failed: \(error)")
        }
        letters[id] = Letter(write: entry.write, bytes: entry.bytes, status: status, reason: reason, failedAt: time)
        onChange()
    }

    private func scheduleFlush() { requestFlush?() }

    /// Whether acknowledgements or attempt counts wait to be saved.
    var hasUnsaved: Bool { !unsavedRemovals.isEmpty || !unsavedAttempts.isEmpty }

    /// Takes back acks and attempt counts whose save failed (newer counts win).
    func takeBack(removals: [Int], attempts: [Int: Int]) {
        unsavedRemovals = removals + unsavedRemovals
        unsavedAttempts.merge(attempts) { newer, _ in newer }
    }

    /// The acks and attempt counts gathered since the last save, for a transaction that runs later.
    func takeUnsaved() -> (removals: [Int], attempts: [Int: Int]) {
        defer {
            unsavedRemovals = []
            unsavedAttempts = [:]
        }
        return (unsavedRemovals, unsavedAttempts)
    }

    /// Takes a dead letter out of the list (to retry or discard it).
    func takeDeadLetter(_ id: Int) -> StoredWrite? {
        guard let letter = letters.removeValue(forKey: id) else { return nil }
        try? store?.removeDeadLetter(id)
        onChange()
        return letter.write
    }

    private func take(_ id: Int) -> Entry? {
        guard let entry = entries.removeValue(forKey: id) else { return nil }
        if let (views, gone) = lastSnapshot, gone < views.count, views[gone].id == id {
            lastSnapshot = (views, gone + 1)
        } else {
            lastSnapshot = nil
        }
        bytes -= entry.bytes
        while let first = order.first, entries[first] == nil { order.removeFirst() }
        if order.count > 64, order.count > 2 * entries.count { order = Deque(order.filter { entries[$0] != nil }) }
        return entry
    }

    /// The public view of the queue.
    var snapshot: [PendingWrite] {
        if let (views, gone) = lastSnapshot {
            let rest = gone == 0 ? views : Array(views.dropFirst(gone))
            lastSnapshot = (rest, 0)
            return rest
        }
        let views = freshSnapshot()
        lastSnapshot = (views, 0)
        return views
    }

    /// The public view made from every entry (what ``snapshot`` gives when the last one cannot
    /// be reused).
    func freshSnapshot() -> [PendingWrite] {
        var views: [PendingWrite] = []
        views.reserveCapacity(entries.count)
        for id in order {
            guard let entry = entries[id] else { continue }
            let path: String
            if let text = entry.pathText {
                path = text
            } else {
                path = entry.write.path.description
                entries[id]?.pathText = path
            }
            views.append(Self.publicView(of: entry.write, path: path, bytes: entry.bytes, state: entry.state))
        }
        return views
    }

    /// The public view of the dead letters.
    var deadLetterSnapshot: [DeadLetter] {
        letters.values.map { letter in
            DeadLetter(
                write: Self.publicView(
                    of: letter.write, path: letter.write.path.description, bytes: letter.bytes, state: .queued),
                status: letter.status, reason: letter.reason,
                failedAt: letter.failedAt)
        }
    }

    /// A stored write as the app sees it.
    private static func publicView(of write: StoredWrite, path: String, bytes: Int, state: PendingWrite.State)
        -> PendingWrite
    {
        PendingWrite(
            id: write.id, kind: write.kind, path: path, bytes: bytes,
            enqueuedAt: write.enqueuedAt, attempts: write.attempts,
            state: state, transactionName: write.name)
    }
}
