/// A standalone link (`presencetop proxy`) this device's traffic crosses, as its control interface
/// last reported it.
public struct ProxyLink: Sendable, Equatable {
    /// Its control interface (`http://HOST:PORT/link`).
    public var control: String
    /// Its mode, conditions and bytes, once read.
    public var link: DeviceLink?
    /// Why it could not be read or changed, if the last attempt failed.
    public var problem: String?

    /// Makes a proxy's snapshot.
    public init(control: String, link: DeviceLink? = nil, problem: String? = nil) {
        self.control = control
        self.link = link
        self.problem = problem
    }
}
