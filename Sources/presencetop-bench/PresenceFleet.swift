import Foundation
import HummingbirdWSClient
import Logging
import RTDBCore
import RTDBWire
import Synchronization

/// Many presence clients, each its own WebSocket running the presence flow, kept open until
/// ``dropAll()`` closes them all at once.
final class PresenceFleet: Sendable {
    private let gate = Gate()
    private let state = Mutex<(tasks: [Task<Void, Never>], connected: Int)>(([], 0))

    /// How many clients are connected and present.
    var count: Int { state.withLock { $0.connected } }

    /// Opens `count` clients, at most `concurrency` handshaking at a time; returns once each is
    /// present (its entry written and its onDisconnect registered) or has failed.
    func connect(count: Int, url: String, concurrency: Int) async throws {
        let (events, continuation) = AsyncStream.makeStream(of: Bool.self)
        var started = 0
        var finished = 0
        func launch() {
            let index = started
            started += 1
            let task = Task { [gate] in
                await Self.client(index, url: url, gate: gate) { continuation.yield($0) }
            }
            state.withLock { $0.tasks.append(task) }
        }
        while started < min(count, concurrency) { launch() }
        for await connected in events {
            finished += 1
            if connected { state.withLock { $0.connected += 1 } }
            if started < count { launch() }
            if finished == count { break }
        }
    }

    /// Closes every client at once and waits until each has gone.
    func dropAll() async {
        gate.open()
        for task in state.withLock({ $0.tasks }) { await task.value }
    }

    /// One client: the documentation's presence flow over the wire, then a wait at the gate.
    private static func client(
        _ index: Int, url: String, gate: Gate, reported: @escaping @Sendable (Bool) -> Void
    ) async {
        let user = "u\(index)"
        let entry = Path("users/\(user)/connections/c")
        let requests: [ClientRequest] = [
            .onDisconnectPut(path: entry, data: .null),
            .onDisconnectPut(path: Path("users/\(user)/lastOnline"), data: [".sv": "timestamp"]),
            .put(path: entry, data: ["device": "bench", "connectedAt": [".sv": "timestamp"]], hash: nil),
        ]
        var logger = Logger(label: "bench.presence")
        logger.logLevel = .critical
        let didReport = Atomic<Bool>(false)
        do {
            try await WebSocketClient.connect(url: url, logger: logger) { inbound, outbound, _ in
                var messages = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
                _ = try await messages.next()  // hello
                for (number, request) in requests.enumerated() {
                    try await outbound.write(.text(WireMessage.request(number + 1, request).text))
                }
                var answered = 0
                while answered < requests.count, let message = try await messages.next() {
                    if case .text(let text) = message, text.contains(#""r":"#) { answered += 1 }
                }
                reported(answered == requests.count)
                didReport.store(true, ordering: .relaxed)
                await gate.wait()
                try await outbound.close(.goingAway, reason: nil)
            }
        } catch {}
        if !didReport.load(ordering: .relaxed) { reported(false) }
    }
}

/// Something many tasks wait at until it opens, once.
final class Gate: Sendable {
    private let state = Mutex<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    /// Returns once the gate is open.
    func wait() async {
        await withCheckedContinuation { continuation in
            let isOpen = state.withLock { state in
                if !state.open { state.waiters.append(continuation) }
                return state.open
            }
            if isOpen { continuation.resume() }
        }
    }

    /// Opens the gate for every waiter, and for every later one.
    func open() {
        let waiters = state.withLock { state in
            state.open = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}
