/// Many presence changes that arrived together (a first load, or one multi-path update), told
/// as one line instead of one line each.
public struct PresenceBurst: Sendable, Equatable, CustomStringConvertible {
    /// Whether this is the first list the watcher received.
    public var isFirstLoad: Bool
    /// Users whose entries changed.
    public var usersChanged: Int
    /// Users who came online.
    public var cameOnline = 0
    /// Users who went offline.
    public var wentOffline = 0
    /// Connection entries that appeared.
    public var devicesConnected = 0
    /// Connection entries that went.
    public var devicesDisconnected = 0
    /// Users listed after it.
    public var listed: Int
    /// Users online after it.
    public var online: Int

    /// More changes than this arriving together are told as one burst.
    public static let threshold = 20

    /// The burst of `changes` (of `usersChanged` users), leaving `listed` users of whom `online`
    /// are online.
    public init(_ changes: [PresenceChange], usersChanged: Int, listed: Int, online: Int, isFirstLoad: Bool) {
        self.isFirstLoad = isFirstLoad
        self.usersChanged = usersChanged
        self.listed = listed
        self.online = online
        for change in changes { count(change) }
    }

    /// Counts one more change in (the user's change is counted apart, in ``usersChanged``).
    public mutating func count(_ change: PresenceChange) {
        switch change {
        case .userOnline: cameOnline += 1
        case .userOffline: wentOffline += 1
        case .deviceConnected: devicesConnected += 1
        case .deviceDisconnected: devicesDisconnected += 1
        }
    }

    /// For example `1,000,000 users listed, 300,000 online`, or `10,000 users changed at once:
    /// 5,000 came online, 5,000 went offline; 300,000 online now`.
    public var description: String {
        if isFirstLoad { return "\(CountFormat.count(listed, "user")) listed, \(CountFormat.grouped(online)) online" }
        var parts: [String] = []
        if cameOnline > 0 { parts.append("\(CountFormat.grouped(cameOnline)) came online") }
        if wentOffline > 0 { parts.append("\(CountFormat.grouped(wentOffline)) went offline") }
        if devicesConnected > 0 { parts.append("\(CountFormat.count(devicesConnected, "connection")) opened") }
        if devicesDisconnected > 0 { parts.append("\(CountFormat.count(devicesDisconnected, "connection")) closed") }
        let what = parts.isEmpty ? "" : ": " + parts.joined(separator: ", ")
        return
            "\(CountFormat.count(usersChanged, "user")) changed at once\(what); \(CountFormat.grouped(online)) online now"
    }
}
