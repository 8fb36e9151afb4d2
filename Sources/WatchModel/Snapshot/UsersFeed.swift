import PresenceModel
import RTDBCore

/// The feed of a snapshot's ``WatchSnapshot/users``: the connection it comes over (the watcher's,
/// straight to the server), whether its first list has arrived, and why the server refused the
/// list, if it did (its rules: the list then never loads).
public struct UsersFeed: Sendable, Equatable {
    /// The feeding connection's status; nil before the watcher exists.
    public var status: ConnectionStatus?
    /// Whether the first list has arrived (false while a first load arrives and is read: at a
    /// million users, seconds in which the list is not empty but not here yet).
    public var loaded: Bool
    /// Why the server refused the list, if it did.
    public var refusal: String?

    /// A feed with `status`, loaded unless said otherwise.
    public init(status: ConnectionStatus? = nil, loaded: Bool = true, refusal: String? = nil) {
        self.status = status
        self.loaded = loaded
        self.refusal = refusal
    }
}
