import Foundation
import LinkSim
import RTDBTestSupport
import Synchronization
import Testing

/// A reader that does not read: the link holds a bounded amount for it, says so in `bytes_held`,
/// and slows the sender through TCP instead of buffering without end.
@Suite(.timeLimit(.minutes(2))) struct LinkBackPressureTests {
    @Test func aClientThatDoesNotReadSlowsTheServerAndTheLinkSaysWhatItHolds() async throws {
        let total = 96 << 20
        let source = try BlockingSource(bytes: total)
        let link = try LinkProxy(upstreamPort: source.port)
        let client = try BlockingSocket(connectingTo: try await link.start())
        defer { client.close() }
        // The client reads nothing: the link's queue toward it passes its bound, and the link stops
        // reading the source, which TCP then slows. (A link that never stops reading hangs here,
        // named by the time limit.)
        #expect(try await until(link.changes) { link.stats.sidesNotRead == 1 })
        let sent = source.sent.load(ordering: .relaxed)
        #expect(sent < total / 2, "the source was held back after \(sent) of \(total) bytes")
        let held = link.stats.bytesHeld
        #expect(held > 0 && held <= 2 << 20, "the link holds a bounded amount, and counts it: \(held)")
        // Once the client reads, everything arrives, in order, and the link holds nothing.
        // Blocking reads on a thread of their own, not one of the test pool's few.
        let received = try await withCheckedThrowingContinuation { (done: CheckedContinuation<Int, any Error>) in
            Thread { done.resume(with: Result { try client.readAll(count: total) }) }.start()
        }
        #expect(received == total)
        #expect(
            try await until(link.changes) {
                link.stats.bytesHeld == 0 && link.stats.bytesDown == total && link.stats.sidesNotRead == 0
            })
        await link.stop()
        source.close()
    }
}

/// A loopback server that writes `bytes` bytes (0, 1, 2, … 255, 0, …) to the first connection,
/// with blocking writes, counting what the socket took.
private final class BlockingSource: Sendable {
    let port: Int
    let sent = Atomic<Int>(0)
    private let listener: Int32

    init(bytes: Int) throws {
        listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let listener = listener
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(listener, address, length) == 0 && listen(listener, 1) == 0
                    && getsockname(listener, address, &length) == 0
            }
        }
        guard bound else { throw TestFailure("cannot listen on loopback") }
        port = Int(UInt16(bigEndian: address.sin_port))
        let thread = Thread { [self] in
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { return }
            defer { Glibc.close(connection) }
            let chunk = (0..<65_536).map { UInt8($0 % 256) }
            var offset = 0
            while offset < bytes {
                let start = offset % chunk.count
                let count = chunk.withUnsafeBytes { buffer in
                    write(connection, buffer.baseAddress.map { $0 + start }, min(buffer.count - start, bytes - offset))
                }
                guard count > 0 else { return }
                offset += count
                self.sent.store(offset, ordering: .relaxed)
            }
        }
        thread.start()
    }

    func close() {
        shutdown(listener, Int32(SHUT_RDWR))
        Glibc.close(listener)
    }
}

/// A client socket with blocking reads.
private struct BlockingSocket {
    let descriptor: Int32

    init(connectingTo port: Int) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        let descriptor = descriptor
        let connected = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                connect(descriptor, address, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        guard connected else { throw TestFailure("cannot connect to the link") }
    }

    /// Reads until `count` bytes or the end, checking the pattern; returns how many came.
    func readAll(count: Int) throws -> Int {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let pattern = (0..<(65_536 + 256)).map { UInt8($0 % 256) }
        var received = 0
        while received < count {
            let read = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            guard read > 0 else { break }
            let same = buffer.withUnsafeBytes { got in
                pattern.withUnsafeBytes { want in
                    guard let got = got.baseAddress, let want = want.baseAddress else { return false }
                    return memcmp(got, want + received % 256, read) == 0
                }
            }
            guard same else { throw TestFailure("the bytes from \(received) are not the ones sent") }
            received += read
        }
        return received
    }

    func close() { Glibc.close(descriptor) }
}
