import Foundation
import HummingbirdWSClient
import Logging
import RTDBCore
import RTDBWire

/// A protocol v5 client for tests over a real WebSocket: send requests, await messages.
public final class WireTestClient: Sendable {
    private let iterator: Inbox
    private let outbound: AsyncStream<String>.Continuation
    private let task: Task<Void, any Error>
    private let requestCounter = Counter()

    /// Frames received and not yet read; one reader at a time.
    private actor Inbox {
        var frames: [String] = []
        var finished = false
        var waiter: CheckedContinuation<String?, Never>?
        var assembler = FrameAssembler(maxMessageBytes: 64 << 20)

        func push(_ frame: String) {
            if let waiter {
                self.waiter = nil
                waiter.resume(returning: frame)
            } else {
                frames.append(frame)
            }
        }

        func finish() {
            finished = true
            waiter?.resume(returning: nil)
            waiter = nil
        }

        private func nextFrame() async -> String? {
            if !frames.isEmpty { return frames.removeFirst() }
            if finished { return nil }
            return await withCheckedContinuation { waiter = $0 }
        }

        func next() async throws -> WireMessage? {
            while let frame = await nextFrame() {
                if let text = try assembler.receive(frame) { return try WireMessage(text: text) }
            }
            return nil
        }
    }

    private actor Counter {
        var value = 0
        func next() -> Int {
            value += 1
            return value
        }
    }

    /// Connects to `url`.
    public init(url: String) {
        let inbox = Inbox()
        let (outgoing, outbound) = AsyncStream.makeStream(of: String.self)
        self.iterator = inbox
        self.outbound = outbound
        var configuration = WebSocketClientConfiguration()
        configuration.maxFrameSize = 1 << 20
        task = Task {
            defer { Task { await inbox.finish() } }
            try await WebSocketClient.connect(
                url: url, configuration: configuration, logger: Logger(label: "test.client")
            ) { inbound, writer, _ in
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        for await text in outgoing { try await writer.write(.text(text)) }
                        try await writer.close(.normalClosure, reason: nil)
                    }
                    group.addTask {
                        for try await message in inbound.messages(maxSize: 64 << 20) {
                            if case .text(let text) = message { await inbox.push(text) }
                        }
                    }
                    try await group.next()
                    group.cancelAll()
                }
            }
        }
    }

    /// Sends raw frame text.
    public func sendFrame(_ text: String) {
        outbound.yield(text)
    }

    /// Sends a request (framed as the SDKs do) and returns its number.
    @discardableResult
    public func send(_ request: ClientRequest) async -> Int {
        let number = await requestCounter.next()
        for frame in WireFraming.frames(for: WireMessage.request(number, request).text) { outbound.yield(frame) }
        return number
    }

    /// Sends a request with any action and body (to test what the server refuses).
    public func sendRaw(action: String, body: JSONValue) async -> Int {
        let number = await requestCounter.next()
        outbound.yield(WireMessage.request(number: number, action: action, body: body).text)
        return number
    }

    /// The response to request `number`, skipping what arrives before it.
    public func response(to number: Int) async throws -> (status: WireStatus, data: JSONValue) {
        guard case .response(_, let status, let data) = try await collect(until: number).last else {
            throw TestFailure("no response")
        }
        return (status, data)
    }

    /// The next message, waiting at most `seconds` (a guard against a hang, not a time limit:
    /// a 10 MB request on a loaded single core took over 30 s beside the other suites).
    public func next(within seconds: Double = 60) async throws -> WireMessage {
        // nil: the time ran out; .some(nil): the connection ended.
        try await withThrowingTaskGroup(of: WireMessage??.self) { group in
            group.addTask { .some(try await self.iterator.next()) }
            group.addTask {
                try await Task.sleep(for: .milliseconds(Int64(seconds * 1000)))
                return nil
            }
            defer { group.cancelAll() }
            switch try await group.next() ?? nil {
            case .some(.some(let message)): return message
            case .some(.none): throw TestFailure("the server closed the connection")
            case .none: throw TestFailure("no message within \(seconds) s")
            }
        }
    }

    /// Messages until (and including) the response to request `number`.
    public func collect(until number: Int) async throws -> [WireMessage] {
        var collected: [WireMessage] = []
        while true {
            let message = try await next()
            collected.append(message)
            if case .response(number, _, _) = message { return collected }
        }
    }

    /// The response to `request`, with whatever arrived before it.
    public func call(_ request: ClientRequest) async throws -> (
        status: WireStatus, data: JSONValue, before: [WireMessage]
    ) {
        let number = await send(request)
        var messages = try await collect(until: number)
        guard case .response(_, let status, let data) = messages.removeLast() else { throw TestFailure("no response") }
        return (status, data, messages)
    }

    /// Reads the hello.
    public func hello() async throws -> Handshake {
        guard case .control(.hello(let handshake)) = try await next() else {
            throw TestFailure("first message is not a hello")
        }
        return handshake
    }

    /// Closes the connection.
    public func close() async {
        outbound.finish()
        _ = try? await task.value
    }
}
