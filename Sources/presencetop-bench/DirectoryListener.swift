import Dispatch
import Foundation
import HummingbirdWSClient
import Logging
import RTDBCore
import RTDBWire
import Synchronization

/// One client listening to the whole presence directory (`users`), as a dashboard does: what it
/// hears is how fast a change reaches everyone watching.
final class DirectoryListener: Sendable {
    private struct State {
        var latencies: [Double] = []
        var removals = 0
        var expectedRemovals = Int.max
        var removalsDone: CheckedContinuation<Bool, Never>?
        var listening: CheckedContinuation<Void, Never>?
    }

    private let state = Mutex(State())
    private let stop = Gate()
    private let task = Mutex<Task<Void, Never>?>(nil)

    private init() {}

    /// Connects and listens to `users`; returns once the listen is answered.
    static func start(url: String) async throws -> DirectoryListener {
        let listener = DirectoryListener()
        await withCheckedContinuation { continuation in
            listener.state.withLock { $0.listening = continuation }
            listener.task.withLock { $0 = Task { await listener.run(url: url) } }
        }
        return listener
    }

    private func run(url: String) async {
        var logger = Logger(label: "bench.directory")
        logger.logLevel = .critical
        _ = try? await WebSocketClient.connect(url: url, logger: logger) { inbound, outbound, _ in
            let listen = ClientRequest.listen(path: Path("users"), query: .default, tag: nil, hash: "")
            try await outbound.write(.text(WireMessage.request(1, listen).text))
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    // A message over 16 KB comes in frames after a count (the protocol's framing).
                    var assembler = FrameAssembler(maxMessageBytes: 1 << 30)
                    for try await message in inbound.messages(maxSize: 1 << 30) {
                        guard case .text(let frame) = message, let text = try assembler.receive(frame) else { continue }
                        self.heard(text)
                    }
                }
                group.addTask { await self.stop.wait() }
                try await group.next()
                group.cancelAll()
            }
            try? await outbound.close(.normalClosure, reason: nil)
        }
        resumeListening()
    }

    private func heard(_ text: String) {
        let arrived = DispatchTime.now().uptimeNanoseconds
        guard let message = try? WireMessage(text: text) else { return }
        switch message {
        case .response(1, _, _):
            resumeListening()
        case .push(.data(let path, let data, _)):
            if path.description == "/users/pulse/at", let sent = data.intValue {
                state.withLock { $0.latencies.append(Double(Int64(arrived) - sent) / 1e6) }
            } else if data == .null, path.back == "c" {
                removed(1)
            }
        case .push(.merge(let path, let data, _)):
            let gone = data.filter { $0.value == .null && (path.child($0.key.string).back == "c") }.count
            if gone > 0 { removed(gone) }
        default:
            break
        }
    }

    private func resumeListening() {
        state.withLock { state in
            state.listening?.resume()
            state.listening = nil
        }
    }

    private func removed(_ count: Int) {
        state.withLock { state in
            state.removals += count
            if state.removals >= state.expectedRemovals {
                state.removalsDone?.resume(returning: true)
                state.removalsDone = nil
            }
        }
    }

    /// Writes `users/pulse/at` (its send time) `rate` times a second for `seconds` from a
    /// connection of its own; returns each write's time to this listener, in ms.
    func fanOut(url: String, rate: Int, seconds: Double) async throws -> [Double] {
        state.withLock { $0.latencies = [] }
        let count = max(1, Int(Double(rate) * seconds))
        let interval = Duration.seconds(1) / max(1, rate)
        var logger = Logger(label: "bench.pulse")
        logger.logLevel = .critical
        try await WebSocketClient.connect(url: url, logger: logger) { inbound, outbound, _ in
            var messages = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
            _ = try await messages.next()  // hello
            let reader = Task { while (try? await messages.next()) != nil {} }
            let clock = ContinuousClock()
            var deadline = clock.now
            for number in 1...count {
                deadline += interval
                try await clock.sleep(until: deadline, tolerance: nil)
                let now = Int64(DispatchTime.now().uptimeNanoseconds)
                let request = ClientRequest.put(path: Path("users/pulse/at"), data: .int(now), hash: nil)
                try await outbound.write(.text(WireMessage.request(number, request).text))
            }
            try await Task.sleep(for: .seconds(1))  // the last pushes arrive
            reader.cancel()
            try await outbound.close(.normalClosure, reason: nil)
        }
        return state.withLock { $0.latencies }
    }

    /// From now on, counts removed connection entries toward `count`.
    func expectRemovals(_ count: Int) {
        state.withLock { state in
            state.removals = 0
            state.expectedRemovals = count
        }
    }

    /// Whether the expected removals were all heard within `timeout`.
    func waitForRemovals(timeout: Duration) async -> Bool {
        let timer = Task {
            try? await Task.sleep(for: timeout)
            self.state.withLock { state in
                state.removalsDone?.resume(returning: false)
                state.removalsDone = nil
            }
        }
        defer { timer.cancel() }
        return await withCheckedContinuation { continuation in
            let done = state.withLock { state in
                if state.removals >= state.expectedRemovals { return true }
                state.removalsDone = continuation
                return false
            }
            if done { continuation.resume(returning: true) }
        }
    }

    /// Ends the listen and closes the connection.
    func close() async {
        stop.open()
        await task.withLock { $0 }?.value
    }
}
