/// When a key binding is in force.
public enum KeyMode: Sendable, Hashable {
    /// Always (a replay's own bindings come first while it plays back).
    case always
    /// Only while a recording is replayed; it then takes precedence over an `always` binding of
    /// the same key (`-` slows the replay instead of moving this device's clock).
    case replaying
}
