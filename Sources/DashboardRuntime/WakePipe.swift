import Dashboard

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A self-pipe: any thread writes a byte to wake the dashboard's loop out of `poll`.
public final class WakePipe: LoopWake {
    /// The end the loop waits on.
    public let readEnd: Int32
    private let writeEnd: Int32

    /// Makes the pipe, both ends non-blocking.
    ///
    /// - Throws: ``WakePipeError`` when the process has no descriptors left.
    public init() throws(WakePipeError) {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw WakePipeError(errno: errno) }
        readEnd = fds[0]
        writeEnd = fds[1]
        for fd in fds { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
    }

    /// Wakes the loop (a full pipe already will).
    public func signal() {
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }

    /// The end the loop waits on.
    public var descriptor: Int32 { readEnd }

    /// Waits until the pipe has a byte or `timeout` passes (nil: no limit); true when woken.
    public func wait(upTo timeout: Duration?) -> Bool {
        var poller = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
        let milliseconds = timeout.map { Int32(clamping: max(0, $0.wholeMilliseconds)) } ?? -1
        return poll(&poller, 1, milliseconds) > 0
    }

    /// Empties the pipe after a wake.
    public func drain() {
        var buffer = [UInt8](repeating: 0, count: 256)
        while read(readEnd, &buffer, buffer.count) > 0 {}
    }

    deinit {
        close(readEnd)
        close(writeEnd)
    }
}

/// The wake pipe could not be made.
public struct WakePipeError: Error, CustomStringConvertible {
    /// The C library's error number.
    public var errno: Int32
    /// `cannot make a pipe: errno 24`.
    public var description: String { "cannot make a pipe: errno \(errno)" }
}
