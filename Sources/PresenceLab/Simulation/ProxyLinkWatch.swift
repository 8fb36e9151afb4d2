import Synchronization

/// The standalone link this device's traffic crosses (``SimulationOptions/linkControl``), as last
/// read, and the task that reads it now and then.
final class ProxyLinkWatch: Sendable {
    private let state = Mutex<(link: ProxyLink?, reader: Task<Void, Never>?)>((nil, nil))

    /// The link as last read; nil without one.
    var link: ProxyLink? { state.withLock { $0.link } }

    /// Keeps `link` as the latest reading.
    func record(_ link: ProxyLink) { state.withLock { $0.link = link } }

    /// Starts with `link` (not read yet), read from now on by `reader`.
    func start(_ link: ProxyLink, reader: Task<Void, Never>) { state.withLock { $0 = (link, reader) } }

    /// Stops reading it.
    func stop() { state.withLock { $0.reader }?.cancel() }
}
