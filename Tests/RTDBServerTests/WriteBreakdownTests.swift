import RTDBCore
import RTDBServer
import RTDBTestSupport
import RTDBWire
import Testing

/// The per-write breakdown the server bench prints: each stage timed while it is on, none after.
@Suite(.serialized) struct WriteBreakdownTests {
    @Test func everyStageOfAnAcknowledgedWriteIsTimedWhileItIsOn() async throws {
        let directory = temporaryDirectory()
        let server = try await TestServer.start(dataDirectory: directory)
        let writer = WireTestClient(url: server.webSocketURL)
        _ = try await writer.hello()
        _ = try await writer.call(.listen(path: Path("a"), query: .default, tag: nil, hash: ""))
        WriteBreakdown.measure(true)
        for value in 1...10 {
            #expect(
                try await writer.call(.put(path: Path("a/\(value)"), data: .int(Int64(value)), hash: nil)).status == .ok
            )
        }
        #expect(try await writer.call(.merge(path: Path("a"), data: ["m": 1])).status == .ok)
        WriteBreakdown.measure(false)
        let (writes, stages) = WriteBreakdown.totals()
        // Other suites' servers may write meanwhile: at least these eleven.
        #expect(writes >= 11)
        for (stage, total) in stages { #expect(total > .zero, "\(stage) was timed") }

        _ = try await writer.call(.put(path: Path("b"), data: 1, hash: nil))
        #expect(WriteBreakdown.totals().writes == writes, "off, nothing more is counted")
        await writer.close()
        await server.stop()
    }
}
