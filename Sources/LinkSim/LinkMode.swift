/// Whether a link carries anything, and how it fails when it does not.
public enum LinkMode: String, Sendable, Equatable, CaseIterable, CustomStringConvertible {
    /// Bytes flow, under the link's conditions.
    case up
    /// Nothing arrives and nothing fails, as on a Wi-Fi that died: bytes and closes wait in the
    /// link and flow again when it comes back. Only a peer's own timeout (the server's heartbeat)
    /// notices.
    case blackhole
    /// Every connection through the link is reset at once and new ones are refused, as in
    /// airplane mode: both ends know straight away.
    case offline

    /// The mode with this name, or an error naming the choices.
    public static func named(_ name: String) throws(LinkError) -> LinkMode {
        guard let mode = LinkMode(rawValue: name) else { throw .unknownMode(name) }
        return mode
    }

    /// The mode's name.
    public var description: String { rawValue }
}
