import RTDBCore
import RTDBWire
import Testing

@testable import RTDBClient

/// This connection's onDisconnect operations as the client knows them, alone: what a set, an
/// update and a cancel leave, what the end of the connection takes, and the report.
@Suite struct LocalOnDisconnectTests {
    static let time = UnixTime(millisecondsSince1970: 1_700_000_000_000)

    @Test func aSetReplacesWhatWasBelowItAnUpdateAddsACancelForgets() {
        var local = LocalOnDisconnect()
        local.acknowledgedSet(Node(trustedJSON: "offline"), at: Path("status/a"), at: Self.time)
        local.acknowledgedUpdate([(Path("last"), Node(trustedJSON: 1))], at: Path("status"), at: Self.time)
        local.acknowledgedSet(.empty, at: Path("conn/x"), at: Self.time)
        #expect(local.registrations.map(\.kind) == [.set, .update, .remove])
        local.acknowledgedSet(Node(trustedJSON: ["a": "gone"]), at: Path("status"), at: Self.time)
        #expect(local.registrations.map(\.path) == [Path("conn/x"), Path("status")], "the set at status replaced both")
        local.acknowledgedCancel(at: Path("conn"))
        #expect(local.registrations.map(\.path) == [Path("status")])
        let writes = local.takeWrites()
        #expect(writes.map(\.path) == [Path("status")])
        #expect(writes.first?.node == Node(trustedJSON: ["a": "gone"]))
        #expect(local.registrations.isEmpty && local.takeWrites().isEmpty, "the connection's end took them all")
    }

    @Test func theReportJudgesEachRegistrationByTheWritesAtAndBelowIt() {
        var local = LocalOnDisconnect()
        local.acknowledgedSet(Node(trustedJSON: false), at: Path("online/a"), at: Self.time)
        local.acknowledgedUpdate([(Path("x"), Node(trustedJSON: 1))], at: Path("admin"), at: Self.time)
        local.acknowledgedSet(Node(trustedJSON: 2), at: Path("quiet"), at: Self.time)
        let dryRun = OnDisconnectDryRun(
            writes: [
                .init(path: "/online/a", removes: false, runs: true),
                .init(path: "/admin/x", removes: false, runs: false, reason: "permission_denied"),
            ], runsAs: "uid-1", expiresAt: 1_700_000_600)
        let report = local.report(from: dryRun)
        #expect(report.operations.map(\.runs) == [true, false, nil])
        #expect(report.operations.map(\.reason) == [nil, "permission_denied", nil])
        #expect(report.runsAs == "uid-1")
        #expect(report.credentialExpiresAt == UnixTime(secondsSince1970: 1_700_000_600))
    }
}
