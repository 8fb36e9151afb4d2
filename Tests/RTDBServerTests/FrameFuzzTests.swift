import Foundation
import RTDBCore
import RTDBServer
import RTDBTestSupport
import RTDBWire
import Testing

/// Seeded hostile WebSocket frames on a live server's sockets, below the protocol's messages.
///
/// Reserved opcodes and bits, unmasked frames, fragments out of order, control frames too long
/// or fragmented, lengths that lie, invalid UTF-8, close frames of every shape, connections cut
/// mid-frame. Each connection ends (answered or closed), everything the server sends is a
/// well-formed frame and a message that parses, other clients keep being served, nothing stored
/// is lost, and no session outlives its connection. ``FuzzSeed`` sets the seed and the rounds.
@Suite struct FrameFuzzTests {
    @Test func hostileFramesEndOnlyTheirOwnConnection() async throws {
        let seed = FuzzSeed.seed
        let server = try await TestServer.start()
        let control = WireTestClient(url: server.webSocketURL)
        _ = try await control.hello()
        #expect(try await control.call(.put(path: Path("kept"), data: "before", hash: nil)).status == .ok)
        var random = FrameGenerator(seed: seed)
        for round in 0..<FuzzSeed.rounds {
            let (bytes, summary) = random.connection()
            let raw = try await RawTCPClient(port: server.port)
            try await raw.upgradeToWebSocket(target: "/.ws?v=5&ns=demo")
            // A FIN after the frames: the server ends the connection once it has read them. (It
            // may have ended it sooner, at a protocol error: the rest finds it closed.)
            try? await raw.write(bytes)
            try? await raw.finishWriting()
            let answer = try await raw.readBytesToEnd()
            let problem = ServerFrames.problem(in: answer)
            #expect(problem == nil, "seed \(seed), round \(round), sent \(summary): \(problem ?? "")")
            await raw.close()
            if round % 25 == 24 {
                #expect(try await control.call(.stats([:])).status == .ok, "seed \(seed), round \(round)")
            }
        }
        #expect(try await control.call(.get(path: Path("kept"), query: .default)).data == "before")
        await control.close()
        #expect(
            try await until(server.server.connections.changes) { server.server.connections.connections.isEmpty },
            "seed \(seed): sessions left: \(server.server.connections.connections.count)")
        await server.stop()
    }
}

/// Makes one connection's worth of frames (RFC 6455 §5.2 by hand, rules broken on purpose).
struct FrameGenerator {
    private var random: SeededRandom

    init(seed: UInt64) { random = SeededRandom(seed: seed) }

    private mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &random) < percent }
    private mutating func pick<T>(_ choices: [T]) -> T { choices[Int.random(in: 0..<choices.count, using: &random)] }
    private mutating func bytes(_ count: Int) -> [UInt8] {
        (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }
    }

    /// One to six frames, sometimes cut short; and a summary of them for a failure's message.
    mutating func connection() -> ([UInt8], String) {
        var bytes: [UInt8] = []
        var summary: [String] = []
        for _ in 0..<Int.random(in: 1...6, using: &random) {
            let (frame, described) = self.frame()
            bytes += frame
            summary.append(described)
        }
        if chance(10), bytes.count > 1 {
            let cut = Int.random(in: 1..<bytes.count, using: &random)
            bytes = Array(bytes[..<cut])
            summary.append("cut at byte \(cut)")
        }
        return (bytes, summary.joined(separator: ", "))
    }

    private mutating func frame() -> ([UInt8], String) {
        let message = Array(#"{"t":"d","d":{"r":1,"a":"p","b":{"p":"/fuzz","d":1}}}"#.utf8)
        let opcode: UInt8 = pick([0x1, 0x1, 0x1, 0x0, 0x0, 0x9, 0xA, 0x8, 0x8, 0x2, 0x3, 0x7, 0xB, 0xF])
        let fin = chance(75)
        let reserved: UInt8 = chance(85) ? 0 : UInt8.random(in: 1...7, using: &random) << 4
        let masked = chance(90)
        var payload: [UInt8]
        switch Int.random(in: 0..<7, using: &random) {
        case 0: payload = message
        case 1: payload = Array(message[..<Int.random(in: 0...message.count, using: &random)])
        case 2: payload = Array(message[Int.random(in: 0...message.count, using: &random)...])
        case 3: payload = bytes(Int.random(in: 0...40, using: &random))
        case 4: payload = [0xC3, 0x28, 0xFF, 0xFE]  // not UTF-8
        case 5: payload = Array(repeating: 0x61, count: pick([125, 126, 200, 70_000]))
        default:
            // A close frame's body: none, one byte, or a code (valid or not) and a reason.
            let code = UInt16(pick([1000, 1001, 1002, 1004, 1005, 1006, 1015, 2999, 3000, 4999, 5000, 0]))
            payload = pick([
                [], [0x03], [UInt8(code >> 8), UInt8(code & 0xFF)] + pick([[], Array("bye".utf8), [0xFF]]),
            ])
        }
        var frame: [UInt8] = [(fin ? 0x80 : 0) | reserved | opcode]
        let maskBit: UInt8 = masked ? 0x80 : 0
        // The length as it should be, or a lie: a longer one than sent, or one past any limit.
        let length: UInt64 =
            chance(90) ? UInt64(payload.count) : pick([UInt64(payload.count + 10), 1 << 40, UInt64.max])
        if length < 126, chance(90) {
            frame.append(maskBit | UInt8(length))
        } else if length < 65_536, chance(80) {
            frame.append(maskBit | 126)
            frame += [UInt8(length >> 8), UInt8(length & 0xFF)]
        } else {
            frame.append(maskBit | 127)
            frame += (0..<8).reversed().map { UInt8((length >> ($0 * 8)) & 0xFF) }
        }
        if masked {
            let mask = bytes(4)
            frame += mask
            frame += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
        } else {
            frame += payload
        }
        let described = String(
            format: "op %X%@%@%@ %d bytes (length %llu)", opcode, fin ? "" : " not-fin",
            reserved == 0 ? "" : " rsv", masked ? "" : " unmasked", payload.count, length)
        return (frame, described)
    }
}

/// Reads what a server sent on a WebSocket: every frame well formed (final, unmasked, no
/// reserved bits, a known opcode, control frames short), every text frame a message that parses.
enum ServerFrames {
    /// What is wrong with `bytes` as a server's frames, or nil.
    static func problem(in bytes: [UInt8]) -> String? {
        var offset = 0
        while offset < bytes.count {
            guard offset + 2 <= bytes.count else { return "a frame header cut at byte \(offset)" }
            let (first, second) = (bytes[offset], bytes[offset + 1])
            let opcode = first & 0x0F
            guard first & 0x70 == 0 else { return "reserved bits set at byte \(offset)" }
            guard second & 0x80 == 0 else { return "a masked frame from the server at byte \(offset)" }
            guard [0x1, 0x8, 0x9, 0xA].contains(opcode) else { return "opcode \(opcode) at byte \(offset)" }
            guard first & 0x80 != 0 else { return "a fragment from the server at byte \(offset)" }
            var length = Int(second & 0x7F)
            var start = offset + 2
            if length == 126 {
                guard start + 2 <= bytes.count else { return "a length cut at byte \(start)" }
                length = Int(bytes[start]) << 8 | Int(bytes[start + 1])
                start += 2
            } else if length == 127 {
                guard start + 8 <= bytes.count else { return "a length cut at byte \(start)" }
                length = bytes[start..<start + 8].reduce(0) { $0 << 8 | Int($1) }
                start += 8
            }
            guard length >= 0, start + length <= bytes.count else { return "a payload cut at byte \(start)" }
            let payload = Array(bytes[start..<start + length])
            if opcode >= 0x8, length > 125 { return "a control frame of \(length) bytes" }
            if opcode == 0x1 {
                let text = String(decoding: payload, as: UTF8.self)
                // A number alone announces a message in parts (the server never splits its own).
                if (try? WireMessage(text: text)) == nil { return "a message that does not parse: \(text.prefix(120))" }
            }
            if opcode == 0x8, length >= 2 {
                let code = Int(payload[0]) << 8 | Int(payload[1])
                if ![1000, 1001, 1002, 1003, 1007, 1008, 1009, 1011].contains(code) { return "close code \(code)" }
            }
            offset = start + length
        }
        return nil
    }
}
