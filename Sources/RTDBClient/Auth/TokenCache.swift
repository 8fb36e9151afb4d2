import RTDBCore

/// Keeps the last credential a provider obtained, hands it out until shortly before it expires,
/// and lets one request obtain a new one while the others wait for it.
actor TokenCache {
    private let clock: WallClock
    /// How long before its expiry a credential counts as spent (Google's libraries use minutes).
    private let margin: Duration
    private var current: DatabaseToken?
    private var inFlight: Task<DatabaseToken, any Error>?

    /// Makes an empty cache on `clock`.
    init(clock: @escaping WallClock, margin: Duration = .seconds(300)) {
        self.clock = clock
        self.margin = margin
    }

    /// The kept credential if it is still good and not refused, else a new one from `obtain`.
    func token(
        forcingRefresh: Bool, obtain: @escaping @Sendable () async throws -> DatabaseToken
    ) async throws -> DatabaseToken {
        if forcingRefresh, inFlight == nil { current = nil }
        if let current, isFresh(current) { return current }
        if let inFlight { return try await inFlight.value }
        let task = Task { try await obtain() }
        inFlight = task
        defer { inFlight = nil }
        let token = try await task.value
        current = token
        return token
    }

    private func isFresh(_ token: DatabaseToken) -> Bool {
        guard let expiresAt = token.expiresAt else { return true }
        return clock() + margin < expiresAt
    }
}
