import Foundation

/// How the user has it: the key bindings in force (the defaults, with a settings file's moves),
/// and the time zone times of day are shown in.
public struct Preferences: Sendable, Equatable {
    /// The key bindings in force.
    public var bindings: [KeyBinding] = KeyMap.bindings
    /// How times of day are shown.
    public var timeZone: TimeZone = .current
}
