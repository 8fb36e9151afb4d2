import ServiceLifecycle

/// A service that does one thing when the server starts to stop, before the others stop (it is
/// the last of the group, and a group stops its services last first).
struct StopWatcher: Service {
    let onStop: @Sendable () async -> Void

    /// Waits for the stop, then runs `onStop`.
    func run() async {
        try? await gracefulShutdown()
        await onStop()
    }
}
