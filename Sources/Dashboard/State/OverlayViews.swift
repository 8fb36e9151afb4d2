import WatchModel

/// The view shown over the panes (Cache, onDisconnect, Rules), how far it is scrolled, and what
/// each view shows: the data of a view is read only while it is open.
public struct OverlayViews: Sendable, Equatable {
    /// The view shown, if any.
    public var shown: DashboardState.Overlay?
    /// Its first visible line.
    public var scroll = 0
    /// What the Cache view shows: the last read of this device's cache.
    public var cache: CacheSummary?
    /// Whether the cache has been read since the view opened (nil `cache` then means no persistence).
    public var cacheRead = false
    /// What the onDisconnect view shows: the server's last verdict (nil: not read yet).
    public var onDisconnect: OnDisconnectSummary?
    /// What the Rules view shows: the server's last coverage report (nil: not read yet).
    public var rules: RulesSummary?

    /// None shown, nothing read.
    public init() {}
}
