import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How many more file descriptors this process may open before it hits its limit (`ulimit -n`).
///
/// Past the limit, sockets and files fail with "Too many open files", and some libraries trap
/// instead of failing (libdispatch's worker monitor died with SIGILL in about half the runs that
/// added 3,000 devices under a limit of 1,024): a device is added only while there is room.
public enum DescriptorHeadroom {
    /// What one simulated device holds at most: its link's listening socket and both sides of
    /// its connection, its SQLite files, and room for a reconnect.
    static let perDevice = 12
    /// Kept free for the rest of the program (the server's namespaces, logs, the terminal).
    static let reserve = 64

    #if canImport(Glibc)
        private static let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
        private static let resource = RLIMIT_NOFILE
    #endif

    /// The open-file limit now, or nil for none.
    static func limit() -> Int? {
        var limit = rlimit()
        guard getrlimit(resource, &limit) == 0, limit.rlim_cur < rlim_t(Int.max) else { return nil }
        return Int(clamping: limit.rlim_cur)
    }

    /// Raises this process's open-file limit to its hard limit (children inherit it), and returns
    /// the limit now (1,024 when it cannot be read).
    public static func raiseToHardLimit() -> Int {
        var limit = rlimit()
        guard getrlimit(resource, &limit) == 0 else { return 1_024 }
        limit.rlim_cur = limit.rlim_max
        _ = setrlimit(resource, &limit)
        _ = getrlimit(resource, &limit)
        return Int(clamping: limit.rlim_cur)
    }

    /// The descriptors open now (`/proc/self/fd`), or nil where that cannot be told.
    static func open() -> Int? {
        try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count
    }

    /// Why a device cannot be added now, if it cannot.
    static func refusal() -> String? {
        guard let limit = limit(), let open = open() else { return nil }
        let free = limit - open
        guard free < perDevice + reserve else { return nil }
        return
            "too many open files: \(max(0, free)) of the limit of \(limit) are free (ulimit -n), and a device needs \(perDevice) with \(reserve) kept for the rest"
    }
}
