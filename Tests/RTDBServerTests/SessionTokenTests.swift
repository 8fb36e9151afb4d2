import RTDBCore
import RTDBWire
import Testing

@testable import RTDBServer

/// Who a session's `auth` or `gauth` signs in as, `authvar` included, alone.
@Suite struct SessionTokenTests {
    static let now = UnixTime(millisecondsSince1970: 1_800_000_000_000)

    @Test func onlyTheAdminCredentialMayActAsAnotherAuth() throws {
        let policy = CredentialPolicy()
        let acting = try policy.sessionToken(for: "owner", actingAs: ["uid": "alice"], now: Self.now)
        #expect(acting.uid == "alice" && !acting.isAdmin)
        #expect(try policy.sessionToken(for: "owner", actingAs: nil, now: Self.now).isAdmin)
        let user = AuthToken.unsignedJWT(claims: ["uid": "morgan", "exp": .int(Self.now.secondsSince1970 + 60)])
        #expect(try policy.sessionToken(for: user, actingAs: nil, now: Self.now).uid == "morgan")
        for (credential, authVariable) in [(user, ["uid": "alice"] as JSONValue), ("owner", "alice")] {
            #expect {
                try policy.sessionToken(for: credential, actingAs: authVariable, now: Self.now)
            } throws: { ($0 as? WireError)?.status == .invalidToken }
        }
    }
}
