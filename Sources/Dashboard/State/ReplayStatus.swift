/// What a replay shows of itself: where its time cursor is, and its keys.
public struct ReplayStatus: Sendable, Equatable {
    /// A key and what it does, for the footer.
    public struct Key: Sendable, Equatable {
        /// The key as the footer names it (`Space`, `←/→`).
        public var label: String
        /// What it does, in a word or two.
        public var hint: String

        /// Makes a key's hint.
        public init(_ label: String, _ hint: String) {
            self.label = label
            self.hint = hint
        }
    }

    /// The cursor, as the status line shows it (`REPLAY 16:00:30.000 UTC ❚❚ ×1  30s of 1m`).
    public var cursor: String
    /// The replay's keys.
    public var keys: [Key]

    /// Makes a replay's status.
    public init(cursor: String, keys: [Key]) {
        self.cursor = cursor
        self.keys = keys
    }
}
