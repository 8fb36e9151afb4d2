import Foundation

/// TCP ports on the loopback, for a benchmark's child server (NIO would need an event loop for
/// what two system calls answer).
enum LoopbackPort {
    /// A port nothing listens on now (for a child server's `--port`).
    static func free() throws -> Int {
        try withSocket(port: 0) { socket, address in
            guard bind(socket, address, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 else {
                throw POSIXError(.EADDRINUSE)
            }
            var bound = sockaddr_in()
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            _ = withUnsafeMutablePointer(to: &bound) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
            }
            return Int(UInt16(bigEndian: bound.sin_port))
        }
    }

    /// Whether something accepts connections at `port`.
    static func accepts(_ port: Int) -> Bool {
        (try? withSocket(port: port) { socket, address in
            connect(socket, address, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
        }) ?? false
    }

    /// Runs `body` with a new TCP socket and the loopback address at `port`, then closes it.
    private static func withSocket<T>(
        port: Int, _ body: (Int32, UnsafePointer<sockaddr>) throws -> T
    ) throws -> T {
        #if canImport(Glibc)
            let stream = Int32(SOCK_STREAM.rawValue)
        #else
            let stream = SOCK_STREAM
        #endif
        let socket = Foundation.socket(AF_INET, stream, 0)
        guard socket >= 0 else { throw POSIXError(.EMFILE) }
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        return try withUnsafePointer(to: &address) {
            try $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { try body(socket, $0) }
        }
    }
}
