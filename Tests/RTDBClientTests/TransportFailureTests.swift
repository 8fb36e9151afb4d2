import Foundation
import NIOCore
import RTDBTestSupport
import Testing

@testable import RTDBClient

/// Why a connection failed, in words a person reads (not `read(descriptor:…) (errno: 104)`).
@Suite struct TransportFailureTests {
    @Test func systemErrorsInPlainWords() {
        #expect(TransportFailure.describe(errno: ECONNREFUSED) == "connection refused (nothing listens there)")
        #expect(TransportFailure.describe(errno: ECONNRESET) == "connection reset")
        #expect(
            TransportFailure.describe(IOError(errnoCode: ECONNRESET, reason: "read(descriptor:pointer:size:)"))
                == "connection reset")
        #expect(
            TransportFailure.describe(ChannelError.inappropriateOperationForState)
                == "the connection closed before the server answered")
        #expect(TransportFailure.describe(ChannelError.connectTimeout(.seconds(5))).hasPrefix("timed out connecting"))
    }

    /// Was: an address where nothing listens read as a reset, or as Swift type names.
    @Test func nothingListeningReadsAsRefused() async throws {
        let server = try await TestServer.start()
        let port = server.port
        await server.stop()
        let database = Database(url: "http://127.0.0.1:\(port)?ns=demo")
        database.reference(withPath: "x").keepSynced(true)
        #expect(
            try await until(database.changes) {
                if case .waitingToRetry(_, _, let reason) = database.connectionStatus.phase {
                    return reason.contains("connection refused")
                }
                return false
            }, "\(database.connectionStatus.phase)")
        #expect(database.connectionStatus.lastHeardAt == nil, "never heard from a server that is not there")
        database.close()
    }

    /// `reconnectNow()` connects at once instead of waiting out the back-off.
    @Test func reconnectNowSkipsTheBackOff() async throws {
        let first = try await TestServer.start()
        let port = first.port
        await first.stop()
        let database = Database(url: "http://127.0.0.1:\(port)?ns=demo")
        var policy = RetryPolicy()
        policy.minimumDelay = .seconds(600)  // ten minutes: only reconnectNow can connect in time
        policy.maximumDelay = .seconds(600)
        policy.jitter = 0
        database.retryPolicy = policy
        database.reference(withPath: "x").keepSynced(true)
        #expect(
            try await until(database.changes) {
                if case .waitingToRetry = database.connectionStatus.phase { return true }
                return false
            })
        let server = try await TestServer.start(configure: { $0.port = port })
        database.reconnectNow()
        #expect(try await until(database.changes) { database.connectionStatus.phase.isConnected })
        database.close()
        await server.stop()
    }
}
