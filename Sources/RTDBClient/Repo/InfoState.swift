import RTDBCore

/// What the client knows of its connection and tells the app: the `.info` tree (`connected`,
/// `serverTimeOffset`) and its data, kept here rather than on a server; the status published to
/// status observers; and the server-time offset, which push ids use too.
///
/// One of the repo's parts, used on its queue, except ``pushIDs`` and the status's `current`,
/// which any thread may use, each under its own lock.
final class InfoState {
    /// The sync tree `.info` listeners are served from.
    let tree = SyncTree()
    /// The `.info` data as set so far.
    private(set) var data = Node.empty
    /// Serves the tree's listens from ``data`` (kept alive here: the tree holds it weakly).
    var provider: InfoListenProvider?
    /// Push ids in server time, and the offset they are made with (any thread).
    let pushIDs: PushIDSource
    /// The connection's status as published to the app, and its observers.
    let status = StatusBroadcast()

    /// Nothing set yet; push ids come from `pushIDs`.
    init(pushIDs: PushIDSource) { self.pushIDs = pushIDs }

    /// The server's time minus this machine's, as last measured.
    var serverTimeOffset: Duration { pushIDs.offset }

    /// Sets `.info/connected`; returns the events for its listeners.
    func setConnected(_ connected: Bool) -> [SyncEvent] { set(".info/connected", Node(.bool(connected))) }

    /// Sets the server-time offset, for `.info/serverTimeOffset` and push ids alike; returns the
    /// events for its listeners.
    func setServerTimeOffset(_ offset: Duration) -> [SyncEvent] {
        pushIDs.offset = offset
        return set(".info/serverTimeOffset", Node(.number(.int(offset.wholeMilliseconds))))
    }

    /// Lets go of the listeners and observers (the engine shuts down).
    func removeAll() {
        tree.removeAll()
        status.observers = [:]
    }

    private func set(_ path: String, _ node: Node) -> [SyncEvent] {
        data = data.updating(at: Path(path), with: node)
        return tree.applyServerOverwrite(Path(path), node)
    }
}
