import RTDBCore
import Testing

@testable import RTDBWire

@Suite struct WireFramingTests {
    @Test func smallMessagesAreOneFrame() {
        #expect(WireFraming.frames(for: "{\"t\":\"d\"}") == ["{\"t\":\"d\"}"])
        let exact = String(repeating: "a", count: 16_384)
        #expect(WireFraming.frames(for: exact) == [exact])
    }

    @Test func largeMessagesAreCountedThenSplit() {
        let message = String(repeating: "x", count: 40_000)
        let frames = WireFraming.frames(for: message)
        #expect(frames.first == "3")
        #expect(frames.dropFirst().map(\.utf16.count) == [16_384, 16_384, 7_232])
        #expect(frames.dropFirst().joined() == message)
    }

    @Test func splitsCountUTF16UnitsAndKeepScalarsWhole() {
        // Each 😀 is two UTF-16 units: 8,192 fit in one frame.
        let message = String(repeating: "😀", count: 8_193)
        let frames = WireFraming.frames(for: message)
        #expect(frames.first == "2")
        #expect(frames[1].utf16.count == 16_384)
        #expect(frames[2] == "😀")
        // An odd split point must not cut a surrogate pair.
        let shifted = "a" + String(repeating: "😀", count: 8_192)
        let shiftedFrames = WireFraming.frames(for: shifted)
        #expect(shiftedFrames[1].utf16.count == 16_383)
        #expect(shiftedFrames.dropFirst().joined() == shifted)
    }

    /// ASCII windows are cut without a walk through them; text with other scalars anywhere,
    /// at a window's edge too, is cut where a walk scalar by scalar cuts it.
    @Test func fragmentsAreWhereAWalkScalarByScalarCutsThem() {
        func walked(_ message: String, _ size: Int) -> [String] {
            var fragments: [String] = []
            var current = ""
            var units = 0
            for scalar in message.unicodeScalars {
                let width = scalar.utf16.count
                if units + width > size {
                    fragments.append(current)
                    (current, units) = ("", 0)
                }
                current.unicodeScalars.append(scalar)
                units += width
            }
            fragments.append(current)
            return fragments.count == 1 ? fragments : [String(fragments.count)] + fragments
        }
        let pieces = ["a", "bc", "é", "অ", "😀", "\u{FF21}", String(repeating: "x", count: 37)]
        var random = SeededRandom(seed: 5)
        for _ in 0..<200 {
            let message = (0..<Int(random.next() % 60)).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }
                .joined()
            for size in [16, 17, 64] where message.utf8.count > size {
                #expect(WireFraming.frames(for: message, maxFrameSize: size) == walked(message, size))
            }
        }
    }

    @Test func assemblerReassemblesAndIgnoresKeepalive() throws {
        var assembler = FrameAssembler(maxMessageBytes: 1 << 20)
        #expect(try assembler.receive("0") == nil)
        #expect(try assembler.receive("{\"a\":1}") == "{\"a\":1}")
        let message = String(repeating: "y", count: 50_000)
        var result: String?
        for frame in WireFraming.frames(for: message) { result = try assembler.receive(frame) }
        #expect(result == message)
        #expect(!assembler.isBuffering)
        #expect(assembler.progress == nil)
        // While a message arrives, how far it is.
        let frames = WireFraming.frames(for: message)
        _ = try assembler.receive(frames[0])
        _ = try assembler.receive(frames[1])
        let progress = try #require(assembler.progress)
        #expect(progress.bytes == 16_384 && progress.fragments == 1 && progress.of == frames.count - 1)
        for frame in frames.dropFirst(2) { _ = try assembler.receive(frame) }
        #expect(assembler.progress == nil)
        // A short numeric frame inside a fragment sequence is a fragment, not a count.
        #expect(try assembler.receive("2") == nil)
        #expect(try assembler.receive("12") == nil)
        #expect(try assembler.receive("34") == "1234")
    }

    @Test func assemblerRefusesOversizedSequences() throws {
        var assembler = FrameAssembler(maxMessageBytes: 100)
        #expect(throws: FrameAssembler.Failure.self) { try assembler.receive("999999") }
        var growing = FrameAssembler(maxMessageBytes: 100)
        _ = try? growing.receive("3")
        _ = try? growing.receive(String(repeating: "a", count: 60))
        #expect(throws: FrameAssembler.Failure.self) { try growing.receive(String(repeating: "b", count: 60)) }
        // After a refusal the assembler starts afresh.
        #expect(try growing.receive("{}") == "{}")
    }
}

/// A first load's users counted as its fragments arrive, before the message is whole.
@Suite struct ArrivingEntriesTests {
    /// A data message for `users` users whose ids and values hold what a careless count would
    /// take for structure: colons, braces, brackets and escaped quotes.
    static func message(users: Int) -> String {
        var members: [String] = []
        for index in 0..<users {
            members.append(
                #""u\#(index):{x}":{"state":"on:line \"[}\"","connections":{"c1":true,"c2":[1,{"a":2}]}}"#)
        }
        return #"{"t":"d","d":{"a":"d","b":{"p":"status","d":{"# + members.joined(separator: ",") + "}}}}"
    }

    @Test func theMembersOfTheDataAreCountedWhereverTheFragmentsCut() throws {
        let text = Self.message(users: 500)
        for frameSize in [7, 64, 1_000] {
            var assembler = FrameAssembler(maxMessageBytes: 1 << 24, countsEntries: true)
            let frames = WireFraming.frames(for: text, maxFrameSize: frameSize)
            #expect(try assembler.receive(frames[0]) == nil && assembler.progress?.entries == 0)
            var whole: String?
            var arrived = ""
            for frame in WireFraming.frames(for: text, maxFrameSize: frameSize).dropFirst() {
                whole = try assembler.receive(frame)
                arrived += frame
                guard let progress = assembler.progress else { continue }
                // Each user's key ends `{x}"`, then its colon.
                let keys = arrived.components(separatedBy: #"x}":"#).count - 1
                #expect(progress.entries == keys, "after \(arrived.utf8.count) bytes in fragments of \(frameSize)")
            }
            #expect(whole == text)
            #expect(assembler.progress == nil, "nothing arriving once whole")
        }
        var counter = JSONMemberCounter(depth: 4)
        counter.read(text)
        #expect(counter.count == 500)
    }

    @Test func aServerDoesNotCount() throws {
        var assembler = FrameAssembler(maxMessageBytes: 1 << 24)
        for frame in WireFraming.frames(for: Self.message(users: 50), maxFrameSize: 100).dropLast() {
            _ = try assembler.receive(frame)
        }
        #expect(assembler.progress?.entries == 0)
    }
}
