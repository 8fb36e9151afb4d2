import LinkSim

/// A device's way to the server, which network faults strike (a chaos run's, a population's and
/// this device's): a proxy on loopback, or a link of a simulated network.
public protocol NetworkLink: AnyObject, Sendable {
    /// Whether it carries anything, and how it fails when it does not.
    var mode: LinkMode { get set }
    /// What it has carried, refused and holds.
    var stats: LinkStats { get }
    /// Sets its latency, jitter and bandwidth.
    func setConditions(_ conditions: LinkConditions) throws(LinkError)
    /// Drops its connections and takes no more (the device's process died).
    func stop() async
}

extension LinkProxy: NetworkLink {}
