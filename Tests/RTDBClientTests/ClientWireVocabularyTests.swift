import Foundation
import RTDBCore
import RTDBTestSupport
import RTDBWire
import Synchronization
import Testing

@testable import RTDBClient

/// The client speaks the one wire vocabulary: every request it sends is read by the server's
/// decoder (``ClientRequest/init(action:body:)``) as the value that was meant.
@Suite struct ClientWireVocabularyTests {
    /// The actions this client sends (stats and App Check are for other clients).
    static let clientActions: Set<ClientRequest.Action> = [
        .listen, .unlisten, .put, .merge, .onDisconnectPut, .onDisconnectMerge, .onDisconnectCancel, .get, .auth,
        .gauth, .unauth,
    ]

    @Test func everyRequestTheClientSendsDecodesToWhatWasMeant() async throws {
        let server = try await TestServer.start()
        let frames = Mutex<[String]>([])
        let transport = InterceptingTransport { frame in
            frames.withLock { $0.append(frame) }
            return .forward
        }
        let database = Database(url: "http://127.0.0.1:\(server.port)?ns=demo", transport: transport)
        let root = database.reference()

        // Each action the client sends, once.
        let handle = root.child("scores").queryOrdered(byChild: "points").queryLimited(toLast: 2).observe(.value) { _ in
        }
        try await root.child("scores/ada").setValue(["points": 3])
        try await root.child("scores").updateChildValues(["bob/points": 5, "cy/points": 1])
        root.child("presence/ada").onDisconnectSetValue(["online": false])
        root.child("presence").onDisconnectUpdateChildValues(["ada/lastOnline": ServerValue.timestamp()])
        root.child("presence/ada").cancelDisconnectOperations()
        _ = try await root.child("elsewhere").getData()  // not under a listen: asked of the server
        database.setCredential(.emulatorUser(uid: "ada"))
        database.setCredential(.admin)
        database.setCredential(nil)
        root.child("scores").removeObserver(withHandle: handle)
        try await root.child("scores/cy").setValue(nil)
        #expect(
            try await until(server.server.connections.changes) {
                server.server.connections.connections.first?.authUID == nil
            })
        // A listen's end has no answer to wait for: the last write is answered after it.
        let sent = try frames.withLock { try Self.requests(in: $0) }
        database.close()
        await server.stop()

        #expect(Set(sent.map(\.action)) == Self.clientActions, "\(sent.map(\.action))")
        for request in sent {
            // What the server reads encodes back to the same text: nothing was lost or reshaped.
            let text = WireMessage.request(1, request).text
            guard case .request(_, let action, let body) = try WireMessage(text: text) else {
                Issue.record("not a request: \(text)")
                continue
            }
            #expect(try ClientRequest(action: action, body: body) == request)
        }
        // And each is the request that was meant.
        let ada = JSONValue.object(["points": 3])
        #expect(
            sent.contains(
                .put(
                    path: Path("scores/ada"), data: ada, hash: nil, idempotencyKey: Self.key(in: sent, at: "scores/ada")
                )))
        #expect(
            sent.contains { request in
                guard case .merge(Path("scores"), let data, _) = request else { return false }
                // The order of a Swift dictionary's keys is not the app's to choose.
                return Dictionary(uniqueKeysWithValues: data.map { ($0.key, $0.value) }) == [
                    "bob/points": 5, "cy/points": 1,
                ]
            })
        #expect(sent.contains(.onDisconnectPut(path: Path("presence/ada"), data: ["online": false])))
        #expect(
            sent.contains(.onDisconnectMerge(path: Path("presence"), data: ["ada/lastOnline": [".sv": "timestamp"]])))
        #expect(sent.contains(.onDisconnectCancel(path: Path("presence/ada"))))
        #expect(sent.contains(.get(path: Path("elsewhere"), query: .default)))
        #expect(sent.contains(.gauth(credential: AuthToken.ownerCredential, authVariable: nil)))
        #expect(sent.contains(.unauth))
        let query = QueryParams(index: .child(Path("points")), limit: 2, viewFrom: .right)
        #expect(
            sent.contains { request in
                guard case .listen(Path("scores"), let params, let tag?, _) = request else { return false }
                return params == query && tag > 0
            })
        #expect(
            sent.contains { request in
                guard case .unlisten(Path("scores"), let params, _?) = request else { return false }
                return params == query
            })
    }

    @Test func everyActionRoundTripsThroughTheOneEncoderAndDecoder() throws {
        let examples: [ClientRequest] = [
            .listen(path: Path("a"), query: QueryParams(index: .key, limit: 3, viewFrom: .left), tag: 4, hash: "h"),
            .listen(path: Path("a"), query: .default, tag: nil, hash: ""),
            .unlisten(path: Path("a"), query: QueryParams(index: .value, limit: 1, viewFrom: .right), tag: 4),
            .put(path: Path("a/b"), data: ["x": 1], hash: "abc", idempotencyKey: "k-1"),
            .put(path: Path("a/.priority"), data: 5, hash: nil),
            .merge(path: Path("a"), data: ["b/c": 1, "d": nil], idempotencyKey: "k-2"),
            .onDisconnectPut(path: Path("p"), data: ["t": [".sv": "timestamp"]]),
            .onDisconnectMerge(path: Path("p"), data: ["q": true]),
            .onDisconnectCancel(path: Path("p")),
            .get(path: Path("a"), query: QueryParams(index: .child(Path("n")), limit: 2, viewFrom: .right)),
            .auth(credential: "jwt", authVariable: ["uid": "x"]),
            .gauth(credential: "owner", authVariable: nil),
            .unauth,
            .stats(["sdk.js": 1]),
            .appCheck(token: "t"),
            .unappCheck,
            .onDisconnectDryRun,
        ]
        #expect(Set(examples.map(\.action)) == Set(ClientRequest.Action.allCases), "an example for every action")
        for example in examples {
            let message = try WireMessage(text: WireMessage.request(7, example).text)
            guard case .request(7, let action, let body) = message else {
                Issue.record("\(example) did not encode as a request")
                continue
            }
            let decoded = try ClientRequest(action: action, body: body)
            #expect(decoded == example, "\(decoded)")
        }
    }

    @Test func theFastTextsEqualTheEncodedMessages() throws {
        #expect(
            WireMessage.acknowledgementText(number: 42) == WireMessage.response(number: 42, status: .ok, data: "").text)
        #expect(
            ControlMessage.pongText(serverTime: 1_700_000_000_123)
                == WireMessage.control(.pong(serverTime: 1_700_000_000_123)).text)
    }

    /// The requests in the frames a client sent (skipping control messages).
    static func requests(in frames: [String]) throws -> [ClientRequest] {
        var assembler = FrameAssembler(maxMessageBytes: 1 << 20)
        var requests: [ClientRequest] = []
        for frame in frames {
            guard let text = try assembler.receive(frame),
                case .request(_, let action, let body) = try WireMessage(text: text)
            else { continue }
            requests.append(try ClientRequest(action: action, body: body))
        }
        return requests
    }

    /// The idempotency key the client sent with its set at `path` (made from its instance and write id).
    static func key(in requests: [ClientRequest], at path: String) -> String? {
        for case .put(Path(path), _, _, let key) in requests { return key }
        return nil
    }
}
