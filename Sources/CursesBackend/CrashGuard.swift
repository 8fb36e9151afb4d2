import CNcursesw

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Gives the terminal back when the process crashes, then lets the crash go on as before (so
/// Swift's backtrace still prints, on the normal screen, after whatever the runtime wrote to
/// stderr while the screen was ours).
enum CrashGuard {
    /// The signals a crash arrives as.
    static let signals = [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP]

    /// The handlers that were there before ours, indexed by signal number.
    ///
    /// Written once, before
    /// any of our handlers can run, and only read after: a signal handler may read it without a
    /// lock (a lock is not async-signal-safe).
    nonisolated(unsafe) static var previous: UnsafeMutablePointer<sigaction>?

    /// Installs the handlers (once).
    static func install() {
        guard previous == nil else { return }
        let saved = UnsafeMutablePointer<sigaction>.allocate(capacity: 65)
        saved.initialize(repeating: sigaction(), count: 65)
        for signal in signals { sigaction(signal, nil, saved + Int(signal)) }
        previous = saved
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { signal in
            endwin()
            StderrCapture.restore()
            if let previous = CrashGuard.previous { sigaction(signal, previous + Int(signal), nil) }
            raise(signal)
        }
        sigemptyset(&action.sa_mask)
        for signal in signals { sigaction(signal, &action, nil) }
    }
}
