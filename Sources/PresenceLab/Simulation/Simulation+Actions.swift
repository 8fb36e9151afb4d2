import Foundation
import LinkSim
import RTDBClient
import RTDBCore
import RTDBWire
import Synchronization

extension Simulation {
    /// Sets this device's link mode (`up`, `offline`, `blackhole`).
    public func setNetwork(_ mode: LinkMode) {
        guard let device = thisDevice, device.link.mode != mode else { return }
        device.link.mode = mode
        emit(.link(device: device.label, mode: DeviceLink.Mode(mode)))
    }

    /// Drives the standalone link, if there is one, instead of this device's own; its outcome is
    /// a notice.
    private func driveProxy(_ decide: @escaping @Sendable (DeviceLink) -> LinkControl.Change) -> Bool {
        proxy.drive(decide) { [weak self] outcome in self?.emit(.notice(outcome)) }
    }

    /// Signs this device in, its credential kept fresh (``ThisDeviceCredential``); each renewal
    /// is an event.
    func signIn(_ device: SimulatedDevice) {
        credential.signIn(device) { [weak self] expiresAt in self?.emit(.credentialRenewed(expiresAt: expiresAt)) }
    }

    /// Switches this device's link between offline and up.
    public func toggleNetwork() {
        if driveProxy({ LinkControl.Change(mode: $0.mode == .offline ? .up : .offline) }) { return }
        guard let device = thisDevice else { return }
        setNetwork(device.link.mode == .offline ? .up : .offline)
    }

    /// Switches this device's link between a blackhole and up.
    public func toggleBlackhole() {
        if driveProxy({ LinkControl.Change(mode: $0.mode == .blackhole ? .up : .blackhole) }) { return }
        guard let device = thisDevice else { return }
        setNetwork(device.link.mode == .blackhole ? .up : .blackhole)
    }

    /// Switches this device's link between its usual conditions and slow ones.
    public func toggleLatency() {
        let (usual, slowed) = (options.conditions, options.slowConditions)
        if driveProxy({ LinkControl.Change(conditions: $0.conditions == slowed.description ? usual : slowed) }) {
            return
        }
        guard let device = thisDevice else { return }
        let slow = ledger.toggleSlow()
        let conditions = slow ? options.slowConditions : options.conditions
        do {
            try device.link.setConditions(conditions)
            emit(.linkConditions(conditions.description))
        } catch {
            emit(.notice("latency: \(error)"))
        }
    }

    /// Queues `count` writes from this device (each a note under `notes/<user>`, stamped with the
    /// server's time): they wait in the queue while offline and drain when it comes back.
    public func queueWrites(_ count: Int) {
        guard let device = thisDevice, count > 0 else { return }
        let notes = device.database.reference(withPath: writePath("notes/\(device.user)"))
        // A full queue, or a store that cannot save (a full disk), refuses the rest of the batch:
        // told once, with why.
        let told = Mutex(false)
        for index in 0..<count {
            notes.childByAutoId().setValue(
                ["text": "note \(index + 1) of \(count)", "at": ServerValue.timestamp()]
            ) { [weak self] error, _ in
                guard let error = error as? DatabaseError, error.code == .queueFull || error.code == .storeFailed,
                    !told.withLock({ told in
                        defer { told = true }
                        return told
                    })
                else { return }
                // Short, to fit a line: the full message is in the log.
                guard error.code == .queueFull else {
                    let reason = device.database.storeFailure?.reason ?? error.message
                    self?.emit(.notice("this device's store cannot save writes (\(reason)): refused, not queued"))
                    return
                }
                let (used, bound) = (device.database.pendingWriteBytes, device.database.persistenceMaxPendingBytes)
                self?.emit(.notice("write queue full at \(used) of \(bound) bytes: writes are refused until it drains"))
            }
        }
    }

    /// Runs a transaction from this device that adds one to `counters/<user>/taps`.
    ///
    /// It is queued offline and retried on conflict, as the SDKs do, and as a named transaction it
    /// is kept on disk and resumed after a restart; its outcome arrives as a
    /// ``WatchEvent/Kind/transaction(path:_:)``.
    public func runTransaction() {
        guard let device = thisDevice else { return }
        device.database.reference(withPath: counterPath(of: device.user))
            .runTransactionBlock(named: Self.tapTransaction)
    }

    /// Moves this device's clock by `delta` (its client notices at its next clock sample).
    public func shiftClock(by delta: Duration) {
        guard let device = thisDevice else { return }
        device.clock.shift(by: delta)
        emit(.clock(offset: device.clock.offset))
    }

    /// Sends this device's refused write `id` again, at the end of its queue.
    public func retryDeadLetter(id: Int) {
        thisDevice?.database.retryDeadLetter(withID: id)
    }

    /// Forgets this device's refused write `id`.
    public func discardDeadLetter(id: Int) {
        thisDevice?.database.discardDeadLetter(withID: id)
    }

    /// Connects this device now instead of waiting out its back-off.
    public func reconnectNow() {
        thisDevice?.database.reconnectNow()
    }

    /// Writes from this device where the presence rules refuse it (another user's presence).
    ///
    /// The server answers `permission_denied` with its reason, and the write becomes a dead letter.
    public func writeForbidden() {
        guard let device = thisDevice else { return }
        let other = population.devices.first { $0.user != device.user }?.user ?? "someone-else"
        device.database.reference(withPath: "\(options.presencePath)/\(other)/lastOnline").setValue(
            ServerValue.timestamp())
    }

    /// Expires this device's credential (the server refuses it and writes pause), or signs in again.
    public func toggleCredential() {
        guard let device = thisDevice else { return }
        let expire = credential.toggleExpired()
        if expire {
            // Issued an hour and a minute ago, for an hour: expired a minute ago.
            let issuedAt = device.clock.now().secondsSince1970 - 3_660
            let token = AuthToken.emulatorToken(uid: device.user, issuedAt: issuedAt, lifetime: 3_600)
            credential.issued(expiringAt: UnixTime(secondsSince1970: issuedAt + 3_600))
            device.database.setCredential(.idToken(token))
        } else {
            signIn(device)
        }
        emit(.credential(expired: expire))
    }

    /// Adds a device for a user picked at random (``ChurnDriver/addDevice()``).
    public func addDevice() async { await churn.addDevice(tell: emit) }

    /// Crashes a simulated device picked at random (``ChurnDriver/crashRandomDevice()``).
    public func crashRandomDevice() async { await churn.crashRandomDevice(tell: emit) }

    /// Picks and applies the churn's next step, and returns it with the device's label.
    @discardableResult
    public func step() -> (label: String, action: ChurnStep.Action)? { churn.step(tell: emit) }

    /// Applies a churn step (`--churn`: a drop, a blackhole, a sign-out) every `interval` until
    /// ``stopChurn()``.
    public func startChurn(every interval: Duration) {
        churn.start(every: interval) { [weak self] kind in self?.emit(kind) }
    }

    /// Stops the churn's steps.
    public func stopChurn() { churn.stop() }

    /// Stops the churn, brings every network back and signs every user in again.
    public func settle() {
        churn.stop()
        population.settle()
    }
}
