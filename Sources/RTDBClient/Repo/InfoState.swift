import RTDBCore

/// The repo's `.info` tree (`connected`, `serverTimeOffset`): the data, kept here rather than
/// on a server, and the sync tree its listeners are served from.
struct InfoState {
    /// The sync tree `.info` listeners are served from.
    let tree = SyncTree()
    /// The `.info` data as set so far.
    var data = Node.empty
    /// Serves the tree's listens from ``data`` (kept alive here: the tree holds it weakly).
    var provider: InfoListenProvider?
}
