import Foundation
import FuzzTargets
import RTDBClient
import RTDBCore
import Testing

/// Every input in `Corpus/<target>` (the seeds `scripts/fuzz` starts from, and each crash it
/// found, kept as a regression) runs through its target; then a seeded run of mutations of them,
/// a small fuzz that needs no libFuzzer build.
@Suite struct FuzzTargetTests {
    static let corpus = Bundle.module.url(forResource: "Corpus", withExtension: nil)

    static func inputs(of target: FuzzTarget) throws -> [[UInt8]] {
        let directory = try #require(corpus).appendingPathComponent(target.rawValue)
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        return try names.map { Array(try Data(contentsOf: directory.appendingPathComponent($0))) }
    }

    @Test(arguments: FuzzTarget.allCases)
    func theCorpusRuns(target: FuzzTarget) throws {
        let inputs = try Self.inputs(of: target)
        #expect(!inputs.isEmpty, "Corpus/\(target.rawValue) has seeds")
        for input in inputs { target.run(input) }
    }

    /// The client-socket target reaches what it is for: a sample answer opens the connection and
    /// its messages arrive, whole and in order, across reads.
    @Test func theClientSocketTargetReadsMessages() throws {
        let directory = try #require(Self.corpus).appendingPathComponent("client-socket")
        func events(_ name: String) throws -> [TransportEvent] {
            FuzzTarget.clientSocket(Array(try Data(contentsOf: directory.appendingPathComponent(name))))
        }
        let split = try events("split-reads")
        #expect(split.first == .opened && split.contains(.frame(#"{"n":1}"#)) && split.contains(.frame(#"{"n":2}"#)))
        #expect(try events("fragments-ping-close").contains(.frame(#"{"t":"d","d":{}}"#)))
        let refused = try events("refused")
        #expect(!refused.contains(.opened) && refused.count == 1, "\(refused)")
        #expect(try !events("bad-accept").contains(.opened))
    }

    /// The server-socket target reaches what it is for: messages past the rate in order whether
    /// the waits end or the peer leaves, a ping answered mid-message, the limit and the forbidden
    /// frames refused with their codes.
    @Test func theServerSocketTargetReadsFrames() throws {
        let directory = try #require(Self.corpus).appendingPathComponent("server-socket")
        func run(_ name: String) throws -> FuzzTarget.ServerSocketRun {
            FuzzTarget.serverSocket(Array(try Data(contentsOf: directory.appendingPathComponent(name))))
        }
        let rate = try run("rate")
        #expect(rate.read.count == 4 && rate.delivered == rate.read && rate.throttled == 1, "\(rate)")
        let gone = try run("gone-while-waiting")
        #expect(gone.read.count == 5 && gone.read.last == .some(nil) && gone.delivered == gone.read, "\(gone)")
        let fragments = try run("fragments-ping-close")
        #expect(fragments.read.count == 1 && fragments.peerClosed == 1)
        #expect(fragments.sent.first.map { [$0.opcode] + $0.payload } == [0xA] + Array("hb".utf8))
        #expect(try run("too-big").protocolErrors == [1009])
        #expect(try run("forbidden").protocolErrors == [1002, 1002])
    }

    /// Seconds of CPU in all: it yields now and then, so that it never holds one of Swift's few
    /// cooperative threads from the tests beside it that answer a server in time.
    @Test(arguments: FuzzTarget.allCases)
    func mutationsOfTheCorpusRun(target: FuzzTarget) async throws {
        let seeds = try Self.inputs(of: target)
        var random = SeededRandom(seed: 19)
        for round in 0..<1_500 {
            if round.isMultiple(of: 25) { await Task.yield() }
            var input = seeds[Int.random(in: seeds.indices, using: &random)]
            for _ in 0..<Int.random(in: 1...4, using: &random) { Self.mutate(&input, using: &random) }
            target.run(input)
        }
    }

    /// One of libFuzzer's simplest moves: flip, insert, erase or duplicate bytes.
    static func mutate(_ input: inout [UInt8], using random: inout SeededRandom) {
        let interesting: [UInt8] = Array(#"{}[]":,.\/$0-9eE+"nul"#.utf8) + [0, 0x7F, 0xC3, 0xFF, 0x0A]
        let position = input.isEmpty ? 0 : Int.random(in: 0..<input.count, using: &random)
        switch Int.random(in: 0..<4, using: &random) {
        case 0 where !input.isEmpty: input[position] ^= UInt8(1 << Int.random(in: 0..<8, using: &random))
        case 1: input.insert(interesting.randomElement(using: &random) ?? 0, at: position)
        case 2 where !input.isEmpty:
            input.removeSubrange(position..<min(input.count, position + Int.random(in: 1...8, using: &random)))
        default:
            let end = min(input.count, position + Int.random(in: 1...16, using: &random))
            input.insert(contentsOf: input[position..<end], at: position)
        }
    }
}
