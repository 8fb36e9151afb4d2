#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A self-pipe: any thread writes a byte to wake the dashboard's loop out of `poll`.
final class WakePipe: Sendable {
    /// The end the loop waits on.
    let readEnd: Int32
    private let writeEnd: Int32

    init() throws {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw DashboardError("cannot make a pipe: errno \(errno)") }
        readEnd = fds[0]
        writeEnd = fds[1]
        for fd in fds { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
    }

    /// Wakes the loop (a full pipe already will).
    func signal() {
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }

    /// Empties the pipe after a wake.
    func drain() {
        var buffer = [UInt8](repeating: 0, count: 256)
        while read(readEnd, &buffer, buffer.count) > 0 {}
    }

    deinit {
        close(readEnd)
        close(writeEnd)
    }
}

/// A failure of the dashboard's own set-up, with a sentence for the person who ran it.
struct DashboardError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
