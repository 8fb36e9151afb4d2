import RTDBCore
import RTDBWire
import Testing

@testable import RTDBClient

/// What a connection owes the server when one is lost, with no connection at all.
@Suite struct RequestQueuesTests {
    private func put(_ queues: inout RequestQueues, hash: String? = nil, key: String? = nil, sent: Bool) -> Int {
        let id = queues.nextPutID()
        var put = OutstandingPut(
            id: id, kind: .set, path: Path("p/\(id)"), data: .json { .int(Int64(id)) }, hash: hash,
            idempotencyKey: key, onSend: nil, onComplete: { _, _ in })
        put.sent = sent
        queues.outstandingPuts.append(put)
        return id
    }

    private func request(_ path: String) -> RequestQueues.QueuedRequest {
        RequestQueues.QueuedRequest(request: .onDisconnectCancel(path: Path(path)), onComplete: nil)
    }

    private func paths(_ requests: [RequestQueues.QueuedRequest]) -> [String] {
        requests.map { request in
            if case .onDisconnectCancel(let path) = request.request { path.description } else { "?" }
        }
    }

    @Test func aLostConnectionPutsItsRequestsFirstInTheOrderTheyWereMade() {
        var queues = RequestQueues()
        queues.offline = [request("/made-offline")]
        queues.retained[7] = request("/sent-second")
        queues.retained[3] = request("/sent-first")
        queues.heldOnDisconnects = [request("/held")]
        #expect(queues.connectionLost().isEmpty)
        #expect(paths(queues.offline) == ["/sent-first", "/sent-second", "/held", "/made-offline"])
        #expect(queues.retained.isEmpty && queues.heldOnDisconnects.isEmpty)
    }

    @Test func sentWritesGoAgainExceptATransactionThatCannotSayItWasApplied() {
        var queues = RequestQueues()
        let plain = put(&queues, sent: true)
        let transaction = put(&queues, hash: "h", sent: true)
        let keyed = put(&queues, hash: "h", key: "k", sent: true)
        let unsent = put(&queues, hash: "h", sent: false)
        let failed = queues.connectionLost()
        #expect(failed.map(\.id) == [transaction], "without an idempotency key it fails with disconnect")
        #expect(queues.outstandingPuts.map(\.id) == [plain, keyed, unsent])
        #expect(queues.outstandingPuts.allSatisfy { !$0.sent }, "each goes again on the next connection")
    }
}
