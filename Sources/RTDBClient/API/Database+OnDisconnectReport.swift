extension Database {
    /// This connection's onDisconnect operations (path, kind, when registered), each with
    /// whether the server would run it now under its rules and the credential it runs as, and
    /// that credential's expiry.
    ///
    /// Against `presencetop serve` (an onDisconnect dry run, `odr`; other servers answer it with
    /// an error). Without a connection it fails at once with `disconnect`: the server holds a
    /// connection's operations only while it lasts.
    public func onDisconnectReport() async throws -> OnDisconnectReport {
        let repo = repo
        return try await withCheckedThrowingContinuation { continuation in
            repo.requestOnDisconnectReport { continuation.resume(with: $0) }
        }
    }
}
