import Foundation
import RTDBCore
import RTDBTestSupport
import RTDBWire
import Testing

/// A live `serve` fed malformed HTTP requests and protocol-v5 messages from a seeded generator:
/// every request gets an answer or a close, every frame the server sends parses, the server stays
/// up, a control client keeps its round trip, and nothing acknowledged is lost.
///
/// `PRESENCETOP_FUZZ_SEED` picks the seed (a failure names it, and the same seed replays the same
/// inputs); `PRESENCETOP_FUZZ_ROUNDS` sets how many inputs of each kind (300 by default, in CI).
@Suite struct NetworkFuzzTests {
    static let (seed, rounds) = (FuzzSeed.seed, FuzzSeed.rounds)

    @Test func aLiveServerAnswersMalformedInputAndLosesNothing() async throws {
        // A long heartbeat: the control client must outlive a loaded machine's late pongs.
        let (server, port) = try await ChildProcess.serve(["--memory", "--heartbeat-timeout", "600"])
        defer { server.signal(SIGKILL) }
        var random = FuzzInput(seed: Self.seed)
        // The control client's data is in a namespace of its own: the fuzz's writes (a PUT of the
        // root with open rules) may replace anything in theirs, which is no loss.
        let control = WireTestClient(url: "ws://127.0.0.1:\(port)/.ws?v=5&ns=control")
        _ = try await control.hello()
        #expect(try await control.call(.put(path: Path("kept"), data: "before", hash: nil)).status == .ok)

        for round in 0..<Self.rounds {
            let request = random.httpRequest()
            let raw = try await RawTCPClient(port: port)
            try await raw.write(request)
            let answer = try await Self.answerOrClose(raw)
            #expect(
                answer.isEmpty || answer.hasPrefix("HTTP/1.1 "),
                "seed \(Self.seed), HTTP round \(round): \(request.debugDescription) → \(answer.prefix(80).debugDescription)"
            )
            await raw.close()
        }

        var client = WireTestClient(url: "ws://127.0.0.1:\(port)/.ws?v=5&ns=demo")
        _ = try await client.hello()
        for round in 0..<Self.rounds {
            let frame = random.protocolMessage()
            client.sendFrame(frame)
            // The session answers what comes next (every frame it sends parses, or this throws);
            // one the server ended is replaced.
            do {
                #expect(try await client.call(.stats([:])).status == .ok, "seed \(Self.seed), round \(round)")
            } catch let failure as TestFailure where failure.description.hasPrefix("no message") {
                await client.close()
                client = WireTestClient(url: "ws://127.0.0.1:\(port)/.ws?v=5&ns=demo")
                _ = try await client.hello()
            }
        }
        await client.close()

        #expect(server.isRunning, "the server is up")
        #expect(try await control.call(.stats([:])).status == .ok, "the control client's round trip")
        #expect(try await control.call(.get(path: Path("kept"), query: .default)).data == "before")
        await control.close()
    }

    /// The response head, or "" when the server closed the connection without one.
    static func answerOrClose(_ raw: RawTCPClient) async throws -> String {
        do {
            return try await raw.read(until: "\r\n\r\n", attempts: 200)
        } catch let failure as TestFailure where failure.description.hasPrefix("connection closed") {
            return ""
        }
    }
}

/// Seeded inputs that are almost right: real methods, paths and messages with one thing wrong.
struct FuzzInput {
    private var state: UInt64

    init(seed: UInt64) { state = seed &* 0x9E37_79B9_7F4A_7C15 | 1 }

    private mutating func next(_ bound: Int) -> Int {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return Int(state % UInt64(bound))
    }

    private mutating func pick<T>(_ choices: [T]) -> T { choices[next(choices.count)] }

    private mutating func junk(_ length: Int) -> String {
        String((0..<length).map { _ in Character(Unicode.Scalar(UInt8(32 + next(95)))) })
    }

    /// A complete HTTP/1.1 request (head and body as declared) with something odd in it.
    mutating func httpRequest() -> String {
        let method = pick(["GET", "PUT", "POST", "PATCH", "DELETE", "OPTIONS", "BREW", "GE T", "get", junk(3)])
        let target = pick([
            "/a.json", "/%zz.json", "/a/b/c.json?orderBy=%22x%22&limitToFirst=-1", "/.json?shallow=true&print=pretty",
            "/.settings/rules.json", "/.admin/connections.json", "/" + String(repeating: "a/", count: 40) + "x.json",
            "/\u{E9}.json", "/a.json?auth=" + junk(8), "/" + junk(12), "*", "/a.json?ns=" + junk(5),
            "/a.json?x-http-method-override=" + pick(["DELETE", "BREW"]),
        ])
        let version = pick(["HTTP/1.1", "HTTP/1.1", "HTTP/1.0", "HTTP/2", "HTTP/1.1 extra", ""])
        let body = pick(["1", "{\"a\":1}", "{\"a\":", "[1,2", "\"\u{E9}\"", "{\".sv\":\"later\"}", "", junk(20)])
        var headers = ["Host: 127.0.0.1", "Connection: close"]
        for _ in 0..<next(3) {
            headers.append(
                pick([
                    "Authorization: Bearer " + junk(10), "If-Match: " + junk(6), "X-Firebase-ETag: true",
                    "Content-Type: text/plain", "Bad Header", "X: \u{1}", "Upgrade: websocket",
                ]))
        }
        headers.append(pick(["Content-Length: \(body.utf8.count)", "Content-Length: abc", "Content-Length: -1"]))
        return "\(method) \(target) \(version)\r\n" + headers.joined(separator: "\r\n") + "\r\n\r\n" + body
    }

    /// A protocol-v5 frame: a message with a wrong action, body or shape, or not JSON at all.
    mutating func protocolMessage() -> String {
        let action = pick(["p", "m", "q", "n", "o", "om", "oc", "g", "auth", "gauth", "unauth", "s", "zz", ""])
        let path = pick(["/a", "/a/.b", "/\u{E9}", "/" + String(repeating: "k/", count: 40), "", "/a$b", "/x/.info"])
        let data = pick([
            "1", "1e308", "{\".sv\":{\"increment\":1e308}}", "{\"a\":{\"b\":null}}", "\"x\"", "null", "[1,[2,[3]]]",
            "{\".value\":1,\"x\":2}", "{\".priority\":true}",
        ])
        let body = pick([
            "{\"p\":\"\(path)\",\"d\":\(data)}", "{\"p\":\"\(path)\",\"q\":{\"l\":-1}}", "{\"p\":5}", "[]",
            "{\"cred\":\"\(junk(6))\"}", "{\"p\":\"\(path)\",\"d\":\(data),\"ik\":\"\(junk(4))\"}",
        ])
        let number = pick(["1", "-1", "\"r\"", "99999999999999999999", "1.5"])
        return pick([
            "{\"t\":\"d\",\"d\":{\"r\":\(number),\"a\":\"\(action)\",\"b\":\(body)}}",
            // (A bare number would announce that many frames to come: framing has tests of its own.)
            "{\"t\":\"c\",\"d\":{\"t\":\"\(junk(2))\"}}", "{\"t\":\"d\"}", "{\"t\":\"d\",\"d\":[]}",
            "x" + junk(11), "{", "",
        ])
    }
}
