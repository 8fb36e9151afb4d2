/// The themes there are, and the one in use.
public struct ThemeChoice: Sendable, Equatable {
    /// The themes there are.
    public var names = ["default"]
    /// The theme in use.
    public var current = "default"
}
