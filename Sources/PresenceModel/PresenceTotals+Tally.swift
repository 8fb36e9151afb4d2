extension PresenceTotals {
    /// What the totals count of one user, in four bytes: a table of a million users keeps this
    /// instead of each user.
    public struct Tally: Sendable, Equatable {
        /// The connections (up to 2²⁸ - 1), then a bit each: names a device, lists connections,
        /// unfit, online.
        private let bits: UInt32

        /// The tally of `user`.
        public init(_ user: UserPresence) {
            let connections = UInt32(min(user.connections.count, 1 << 28 - 1))
            bits =
                connections << 4 | (user.isOnline ? 1 : 0) | (user.problem != nil ? 2 : 0)
                | (user.problem == nil && user.reportedOnline == nil ? 4 : 0)
                | (user.connections.contains { $0.device != nil } ? 8 : 0)
        }

        /// The user's live connections.
        public var connections: Int { Int(bits >> 4) }
        /// Whether a connection of theirs names its device (most name none: the documentation's
        /// entries are `true`).
        public var namesDevices: Bool { bits & 8 != 0 }
        /// Whether the user is online.
        public var isOnline: Bool { bits & 1 != 0 }
        /// Whether the entry fits no layout.
        public var isUnfit: Bool { bits & 2 != 0 }
        /// Whether the user's layout lists connections (an entry that fits, without a stated
        /// online or offline).
        public var listsConnections: Bool { bits & 4 != 0 }
    }
}
