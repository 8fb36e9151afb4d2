import DequeModule
import RTDBCore
import RTDBWire

/// What a connection owes the server across losses: its listens, its writes until acknowledged,
/// onDisconnect operations and reads made while offline or lost with a connection, and reads
/// waiting for one.
struct RequestQueues {
    /// A listen kept to be sent again on every connection.
    struct Listen {
        var query: QuerySpec
        var tag: Int?
        var hash: () -> String
        var onComplete: (WireStatus, JSONValue) -> Void
    }

    /// A request that goes out on the next connection.
    struct QueuedRequest {
        var request: ClientRequest
        var onComplete: ((WireStatus, JSONValue) -> Void)?
    }

    /// The listens, by their query's description (compared by UTF-16 code units).
    var listens: [CodeUnitString: Listen] = [:]
    /// Writes not yet acknowledged, in order (answers come in order: acks leave from the front).
    var outstandingPuts = Deque<OutstandingPut>()
    private var lastPutID = 0
    /// Requests made without a connection, in order.
    var offline: [QueuedRequest] = []
    /// Reads once waiting for a connection, by number, until answered or given up.
    var waitingGets: [Int: (WireStatus, JSONValue) -> Void] = [:]
    private var lastGetID = 0
    /// onDisconnect operations and reads sent but not yet answered, by request number.
    var retained: [Int: QueuedRequest] = [:]
    /// onDisconnect operations held while writes are paused (they are writes too: made signed
    /// out, the rules would refuse them, and the entry they protect would become a ghost).
    var heldOnDisconnects: [QueuedRequest] = []

    /// The id of the next write.
    mutating func nextPutID() -> Int {
        lastPutID += 1
        return lastPutID
    }

    /// The id of the next read to wait for a connection.
    mutating func nextGetID() -> Int {
        lastGetID += 1
        return lastGetID
    }

    /// The connection was lost: requests lost with it go out again first, in the order they were
    /// made (the SDKs drop them, so an onDisconnect made just before a drop would never be
    /// registered), and writes that were sent are sent again in order after reconnecting.
    ///
    /// Returns the puts that fail instead: a transaction's without an idempotency key fails with
    /// `disconnect`, as the SDKs do; with one it is sent again (our server answers ok if it was
    /// applied, else judges its hash).
    mutating func connectionLost() -> [OutstandingPut] {
        offline = retained.sorted { $0.key < $1.key }.map(\.value) + heldOnDisconnects + offline
        retained = [:]
        heldOnDisconnects = []
        var kept = Deque<OutstandingPut>()
        var failed: [OutstandingPut] = []
        for var put in outstandingPuts {
            if put.sent, put.hash != nil, put.idempotencyKey == nil {
                failed.append(put)
            } else {
                put.sent = false
                kept.append(put)
            }
        }
        outstandingPuts = kept
        return failed
    }

    /// Lets go of every request and its callback (the instance closed: they hold the repo); a
    /// read waiting for a connection is still answered `client_offline` when its wait ends.
    mutating func release() {
        listens = [:]
        outstandingPuts = []
        offline = []
        retained = [:]
        heldOnDisconnects = []
    }
}
