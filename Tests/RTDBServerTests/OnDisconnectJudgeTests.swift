import RTDBCore
import RTDBRules
import RTDBWire
import Testing

@testable import RTDBServer

/// onDisconnect writes judged and run alone: the rules, the data and the time given by hand.
@Suite struct OnDisconnectJudgeTests {
    static let now = UnixTime(millisecondsSince1970: 1_700_000_000_000)
    /// Each user writes only their own status; `count` may only go up by one.
    static let rules = """
        { "rules": {
            "status": { "$uid": { ".write": "auth != null && auth.uid == $uid" } },
            "count": { ".write": "newData.val() == data.val() + 1" }
        } }
        """

    static func auth(_ uid: String) -> RuleAuth { RuleAuth(AuthToken(claims: ["uid": .string(uid)])) }

    static func judge() throws -> OnDisconnectJudge {
        OnDisconnectJudge(rules: try SecurityRules(text: rules), now: now)
    }

    @Test func sessionsThatEndTogetherMakeOneChangeAndEachRefusalIsKept() throws {
        let stamp = Node(trustedJSON: [".sv": "timestamp"])
        let due = [
            OnDisconnectJudge.Due(
                writes: [(Path("status/a"), stamp), (Path("status/b"), Node(trustedJSON: "no"))], auth: Self.auth("a"),
                sessionID: "s1"),
            OnDisconnectJudge.Due(writes: [(Path("status/b"), .empty)], auth: Self.auth("b"), sessionID: "s2"),
        ]
        let root = Node(trustedJSON: ["status": ["b": "online"], "count": 1])
        let run = try Self.judge().run(due, on: root)
        #expect(run.ran == 2)
        #expect(run.refused.map(\.sessionID) == ["s1"] && run.refused.first?.path == Path("status/b"))
        #expect(run.refused.first?.refusal.byRules != nil)
        guard case .merge(let path, let children)? = run.change else {
            Issue.record("one merge for both sessions, not \(String(describing: run.change))")
            return
        }
        #expect(path == Path("status") && Set(children.map(\.relative)) == [Path("a"), Path("b")])
        #expect(run.root.child(at: Path("status")) == Node(trustedJSON: ["a": 1_700_000_000_000]))
        #expect(run.root.child(at: Path("count")) == Node(trustedJSON: 1))
    }

    @Test func eachWriteSeesTheOnesBeforeIt() throws {
        let increment = Node(trustedJSON: [".sv": ["increment": 1]])
        let due = [
            OnDisconnectJudge.Due(
                writes: [(Path("count"), increment), (Path("count"), increment)], auth: .anonymous, sessionID: "s1")
        ]
        let run = try Self.judge().run(due, on: Node(trustedJSON: ["count": 1]))
        #expect(run.ran == 2 && run.refused.isEmpty)
        #expect(run.root.child(at: Path("count")) == Node(trustedJSON: 3))
        guard case .set(let path, let node)? = run.change else {
            Issue.record("one set")
            return
        }
        #expect(path == Path("count") && node == Node(trustedJSON: 3))
    }

    @Test func aDryRunJudgesInOrderAndAppliesNothing() throws {
        let judge = try Self.judge()
        let writes: [(path: Path, node: Node)] = [
            (Path("status/a"), Node(trustedJSON: "away")), (Path("status/c"), .empty),
        ]
        let verdicts = judge.dryRun(writes, auth: Self.auth("a"), on: .empty)
        #expect(verdicts.map(\.runs) == [true, false])
        #expect(verdicts.map(\.removes) == [false, true])
        #expect(verdicts[1].reason?.hasPrefix("the rules refuse it now") == true)
        #expect(judge.run([], on: .empty).change == nil)
    }

    @Test func aRegistrationsPlacesAreCheckedBeforeItsData() {
        #expect(throws: WireError.self) {
            try OnDisconnectJudge.nodes(at: Path(".info/x"), children: [(.root, .bool(true))])
        }
        #expect(throws: WireError.self) {
            try OnDisconnectJudge.nodes(at: Path("a"), children: [(Path("b"), 1), (Path("b/c"), 2)])
        }
        let nodes = try? OnDisconnectJudge.nodes(at: Path("a"), children: [(Path("b"), 1), (Path("c"), "x")])
        #expect(nodes?.map(\.path) == [Path("a/b"), Path("a/c")])
    }
}
