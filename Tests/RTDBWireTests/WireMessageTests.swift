import RTDBCore
import Testing

@testable import RTDBWire

@Suite struct WireMessageTests {
    @Test func helloMatchesTheSDKShape() throws {
        let hello = WireMessage.control(
            .hello(Handshake(timestamp: 1_724_150_000_000, host: "localhost:9000", sessionID: "a1b2c3")))
        #expect(
            hello.text == #"{"t":"c","d":{"t":"h","d":{"ts":1724150000000,"v":"5","h":"localhost:9000","s":"a1b2c3"}}}"#
        )
        #expect(try WireMessage(text: hello.text) == hello)
        #expect(WireMessage.control(.pong(serverTime: nil)).text == #"{"t":"c","d":{"t":"o","d":{}}}"#)
        #expect(try WireMessage(text: #"{"t":"c","d":{"t":"o","d":{"ts":5}}}"#) == .control(.pong(serverTime: 5)))
    }

    @Test func parsesJSSDKRequests() throws {
        let stats = try WireMessage(text: #"{"t":"d","d":{"r":1,"a":"s","b":{"c":{"sdk.js.9-8-1":1}}}}"#)
        guard case .request(1, "s", let body) = stats else {
            Issue.record("not a request: \(stats)")
            return
        }
        #expect(try ClientRequest(action: "s", body: body) == .stats(["sdk.js.9-8-1": 1]))

        let listen = try ClientRequest(
            action: "q", body: try JSONParser.parse(#"{"p":"/msgs","q":{"l":2,"vf":"r"},"t":1,"h":""}"#))
        #expect(listen == .listen(path: Path("msgs"), query: QueryParams(limit: 2, viewFrom: .right), tag: 1, hash: ""))

        let put = try ClientRequest(
            action: "p", body: try JSONParser.parse(#"{"p":"/a/b","d":{"x":{".sv":"timestamp"}},"h":"abc="}"#))
        #expect(put == .put(path: Path("a/b"), data: ["x": [".sv": "timestamp"]], hash: "abc="))

        let merge = try ClientRequest(action: "m", body: try JSONParser.parse(#"{"p":"/","d":{"a/b":1,"c":null}}"#))
        #expect(merge == .merge(path: .root, data: ["a/b": 1, "c": nil]))

        #expect(try ClientRequest(action: "unappeck", body: [:]) == .unappCheck)
        #expect(try ClientRequest(action: "oc", body: ["p": "/x", "d": nil]) == .onDisconnectCancel(path: Path("x")))
    }

    @Test func requestsRoundTrip() throws {
        let requests: [ClientRequest] = [
            .listen(path: Path("a"), query: .default, tag: nil, hash: "h"),
            .listen(path: Path("a"), query: QueryParams(index: .value, limit: 4, viewFrom: .right), tag: 3, hash: ""),
            .unlisten(path: Path("a"), query: QueryParams(index: .key, start: .init(value: "k")), tag: 2),
            .put(path: Path("p"), data: 5, hash: nil), .put(path: Path("p"), data: nil, hash: ""),
            .merge(path: Path("m"), data: ["x/y": true]), .onDisconnectPut(path: Path("o"), data: "bye"),
            .onDisconnectMerge(path: Path("o"), data: ["a": 1]), .onDisconnectCancel(path: Path("o")),
            .get(path: Path("g"), query: .default), .auth(credential: "jwt", authVariable: nil),
            .gauth(credential: "owner", authVariable: ["uid": "u"]), .unauth, .stats(["c": 1]),
            .appCheck(token: "t"), .unappCheck,
        ]
        for request in requests {
            let text = WireMessage.request(7, request).text
            guard case .request(7, let action, let body) = try WireMessage(text: text) else {
                Issue.record("did not parse back: \(text)")
                continue
            }
            #expect(try ClientRequest(action: action, body: body) == request, "\(text)")
        }
    }

    /// A set's or an update's text, written straight out, is the text the envelope's JSON tree
    /// gives, for every field and for paths and values that need escaping; other requests too.
    @Test func writeRequestTextIsTheEnvelopesText() {
        let requests: [ClientRequest] = [
            .put(path: Path("p"), data: 5, hash: nil), .put(path: Path("p"), data: nil, hash: ""),
            .put(path: Path("users/é \"q\"/\u{1F600}"), data: ["a": [1, "two\n"], "b": ["c": nil]], hash: "h\\"),
            .put(path: .root, data: "x", hash: nil, idempotencyKey: "i-1"),
            .put(path: Path("a/b"), data: 1.5, hash: "abc", idempotencyKey: "k"),
            .merge(path: Path("m"), data: ["x/y": true]), .merge(path: Path("m"), data: [:], idempotencyKey: "k2"),
            .listen(path: Path("a"), query: .default, tag: nil, hash: "h"),
            .onDisconnectPut(path: Path("o"), data: "bye"),
        ]
        for (offset, request) in requests.enumerated() {
            let number = offset * 1_000_003
            #expect(WireMessage.requestText(number, request) == WireMessage.request(number, request).text)
        }
    }

    /// An acknowledgement read without parsing is the message parsing reads; any other text,
    /// however close, is left to the parser.
    @Test func acknowledgementsAreReadAsTheParserReadsThem() throws {
        for number in [0, 1, 7, 42, 1_000_003, Int(Int32.max)] {
            let text = WireMessage.acknowledgementText(number: number)
            #expect(WireMessage.acknowledgedNumber(inText: text) == number)
            #expect(try WireMessage(text: text) == .response(number: number, status: .ok, data: ""))
        }
        let others = [
            #"{"t":"d","d":{"r":01,"b":{"s":"ok","d":""}}}"#, #"{"t":"d","d":{"r":-1,"b":{"s":"ok","d":""}}}"#,
            #"{"t":"d","d":{"r":2147483648,"b":{"s":"ok","d":""}}}"#, #"{"t":"d","d":{"r":,"b":{"s":"ok","d":""}}}"#,
            #"{"t":"d","d":{"r":1 ,"b":{"s":"ok","d":""}}}"#, #"{"t":"d","d":{"r":1,"b":{"s":"ok","d":"x"}}}"#,
            #"{"t":"d","d":{"r":1,"b":{"s":"permission_denied","d":""}}}"#,
            #"{"t":"d","d":{"r":1.5,"b":{"s":"ok","d":""}}}"#,
            #" {"t":"d","d":{"r":1,"b":{"s":"ok","d":""}}}"#, #"{"t":"d","d":{"r":12345678901,"b":{"s":"ok","d":""}}}"#,
        ]
        for text in others { #expect(WireMessage.acknowledgedNumber(inText: text) == nil, "\(text)") }
    }

    @Test func pushesCarryTags() throws {
        let push = WireMessage.push(.data(path: Path("msgs"), data: ["-Nx1": ["t": "hi"]], tag: 1))
        #expect(push.text == #"{"t":"d","d":{"a":"d","b":{"p":"/msgs","d":{"-Nx1":{"t":"hi"}},"t":1}}}"#)
        #expect(try WireMessage(text: push.text) == push)
        let merge = WireMessage.push(.merge(path: Path("msgs"), data: ["-Nx1": nil], tag: 1))
        #expect(try WireMessage(text: merge.text) == merge)
        let untagged = WireMessage.push(.data(path: Path("a"), data: 1, tag: nil))
        #expect(!untagged.text.contains("\"t\":1"))
    }

    @Test func responses() throws {
        let ok = WireMessage.response(number: 3, status: .ok, data: [:])
        #expect(ok.text == #"{"t":"d","d":{"r":3,"b":{"s":"ok","d":{}}}}"#)
        #expect(try WireMessage(text: ok.text) == ok)
    }

    @Test func malformedInputNamesTheProblem() {
        let cases: [(String, String)] = [
            ("not json", "invalid JSON"), ("[1]", "JSON object"), (#"{"t":"x"}"#, "must be"),
            (#"{"t":"d","d":{"x":1}}"#, "needs 'r'"), (#"{"t":"c","d":{}}"#, "without 't'"),
        ]
        for (text, fragment) in cases {
            do {
                _ = try WireMessage(text: text)
                Issue.record("accepted \(text)")
            } catch {
                #expect(error.status == .invalidRequest)
                #expect(error.message.contains(fragment), "\(error.message)")
            }
        }
    }

    @Test func invalidRequestBodies() {
        #expect(throws: WireError(status: .unknownAction, message: "unknown action 'zz'")) {
            try ClientRequest(action: "zz", body: [:])
        }
        #expect(throws: WireError.self) { try ClientRequest(action: "p", body: ["p": 5]) }
        do {
            _ = try ClientRequest(action: "p", body: ["p": "/a/b.c", "d": 1])
            Issue.record("accepted an invalid path")
        } catch {
            #expect(error.status == .invalidPath)
        }
        #expect(throws: WireError.self) { try ClientRequest(action: "q", body: ["p": "/a", "q": ["l": 0], "t": 1]) }
        #expect(throws: WireError.self) { try ClientRequest(action: "q", body: ["p": "/a", "t": "x"]) }
        #expect(throws: WireError.self) { try ClientRequest(action: "m", body: ["p": "/a", "d": 5]) }
    }

    @Test func authTokens() throws {
        let token = AuthToken.emulatorToken(uid: "morgan")
        let parsed = try AuthToken(credential: token)
        #expect(parsed.uid == "morgan")
        #expect(parsed.expiresAt == 3600)
        #expect(!parsed.isAdmin)
        #expect(try AuthToken(credential: "owner").isAdmin)
        #expect(throws: WireError.self) { try AuthToken(credential: "garbage") }
        #expect(throws: WireError.self) { try AuthToken(credential: "a.!!!.c") }
    }
}
