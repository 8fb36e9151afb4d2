#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Keeps what is written to stderr while the screen is ours off the screen, and shows it once the
/// terminal is given back: a stray library warning would otherwise tear a frame, and a Swift
/// runtime error (`Fatal error: …`, written just before the trap) would vanish with the
/// alternate screen.
///
/// stderr goes to an unlinked temporary file; ``restore()`` (on exit, or from the crash handler,
/// so it uses only async-signal-safe calls) puts the real stderr back and copies the file to it.
enum StderrCapture {
    /// The real stderr while captured, else -1.
    ///
    /// Written only before the crash handlers can read it.
    nonisolated(unsafe) static var savedDescriptor: Int32 = -1
    /// The file that collects what was written meanwhile.
    nonisolated(unsafe) static var captureDescriptor: Int32 = -1
    /// A buffer allocated up front: the crash handler may not allocate.
    nonisolated(unsafe) static let buffer = UnsafeMutableRawPointer.allocate(byteCount: 4_096, alignment: 8)

    /// Sends stderr to a temporary file (once; a no-op if that cannot be done).
    static func begin() {
        guard savedDescriptor < 0 else { return }
        let folder = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
        var template = Array("\(folder)/presencetop-stderr-XXXXXX".utf8CString)
        let file = template.withUnsafeMutableBufferPointer { buffer in buffer.baseAddress.map { mkstemp($0) } ?? -1 }
        guard file >= 0 else { return }
        template.withUnsafeBufferPointer { buffer in _ = buffer.baseAddress.map { unlink($0) } }
        let saved = dup(STDERR_FILENO)
        guard saved >= 0, dup2(file, STDERR_FILENO) >= 0 else {
            Glibc.close(file)
            if saved >= 0 { Glibc.close(saved) }
            return
        }
        captureDescriptor = file
        savedDescriptor = saved
    }

    /// Puts the real stderr back and writes out what was captured.
    ///
    /// Async-signal-safe: the crash handler calls it.
    static func restore() {
        let saved = savedDescriptor
        let file = captureDescriptor
        guard saved >= 0, file >= 0 else { return }
        savedDescriptor = -1
        captureDescriptor = -1
        dup2(saved, STDERR_FILENO)
        lseek(file, 0, SEEK_SET)
        while true {
            let count = read(file, buffer, 4_096)
            guard count > 0 else { break }
            var written = 0
            while written < count {
                let step = write(STDERR_FILENO, buffer + written, count - written)
                guard step > 0 else { break }
                written += step
            }
        }
        Glibc.close(file)
        Glibc.close(saved)
    }
}
