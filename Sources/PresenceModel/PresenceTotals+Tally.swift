extension PresenceTotals {
    /// What the totals count of one user, in four bytes: a table of a million users keeps this
    /// instead of each user.
    public struct Tally: Sendable, Equatable {
        /// The connections (up to 2²⁹ - 1), then a bit each: online, unfit, lists connections.
        private let bits: UInt32

        /// The tally of `user`.
        public init(_ user: UserPresence) {
            let connections = UInt32(min(user.connections.count, 1 << 29 - 1))
            bits =
                connections << 3 | (user.isOnline ? 1 : 0) | (user.problem != nil ? 2 : 0)
                | (user.problem == nil && user.reportedOnline == nil ? 4 : 0)
        }

        /// The user's live connections.
        public var connections: Int { Int(bits >> 3) }
        /// Whether the user is online.
        public var isOnline: Bool { bits & 1 != 0 }
        /// Whether the entry fits no layout.
        public var isUnfit: Bool { bits & 2 != 0 }
        /// Whether the user's layout lists connections (an entry that fits, without a stated
        /// online or offline).
        public var listsConnections: Bool { bits & 4 != 0 }
    }
}
