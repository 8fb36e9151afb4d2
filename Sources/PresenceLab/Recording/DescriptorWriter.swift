#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes whole buffers to a file descriptor, as recordings and `presencetop watch` need: every
/// byte or an error, across interrupted and partial writes and a descriptor that would block.
enum DescriptorWriter {
    /// Writes all of `bytes` to `descriptor`, or gives the `errno` that stopped it (`EPIPE`: the
    /// reader went; `ENOSPC`: the disk is full).
    static func write(_ bytes: [UInt8], to descriptor: Int32) -> Int32? {
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return 0 }
                #if canImport(Glibc)
                    return Glibc.write(descriptor, base + offset, buffer.count - offset)
                #else
                    return Darwin.write(descriptor, base + offset, buffer.count - offset)
                #endif
            }
            if count < 0, errno == EINTR { continue }
            if count < 0, errno == EAGAIN || errno == EWOULDBLOCK {
                // A descriptor set non-blocking by whoever shares it: wait until it takes more.
                var ready = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                _ = poll(&ready, 1, -1)
                continue
            }
            guard count > 0 else { return count < 0 ? errno : EIO }
            offset += count
        }
        return nil
    }

    /// What `error` means, in words.
    static func reason(_ error: Int32) -> String { String(cString: strerror(error)) }
}
