import Foundation
import Presence
import RTDBClient
import RTDBCore
import RTDBTestSupport
import RTDBWire
import Testing

/// The onDisconnect report: a connection's registered operations, each with whether the server
/// would run it now, against a real server whose rules change under it.
@Suite struct OnDisconnectReportTests {
    @Test func theReportShowsWhatWouldRunBeforeTheConnectionEnds() async throws {
        let server = try await PresenceRulesTests.server()
        let morgan = PresenceRulesTests.client(server, as: .emulatorUser(uid: "morgan"))
        let entry = morgan.reference(withPath: "users/morgan/connections/phone")
        let lastOnline = morgan.reference(withPath: "users/morgan/lastOnline")
        #expect(await PresenceRulesTests.outcome { entry.onDisconnectRemoveValue(completionBlock: $0) } == nil)
        #expect(
            await PresenceRulesTests.outcome {
                lastOnline.onDisconnectSetValue(ServerValue.timestamp(), withCompletionBlock: $0)
            } == nil)

        var report = try await morgan.onDisconnectReport()
        #expect(report.runsAs == "morgan")
        #expect(report.operations.map(\.path) == ["/users/morgan/connections/phone", "/users/morgan/lastOnline"])
        #expect(report.operations.map(\.kind) == [.remove, .set])
        #expect(report.operations.allSatisfy { $0.runs == true }, "\(report)")

        // The rules change under the connection: its presence would be left behind, and the
        // report says so while there is still time.
        let locked = PresenceRules.text.replacing(
            #"".write": "auth != null && auth.uid == $uid""#,
            with: #"".write": "auth != null && auth.uid == $uid && $uid != 'morgan'""#)
        #expect(try await PresenceRulesTests.putRules(locked, server).status == 200)
        report = try await morgan.onDisconnectReport()
        #expect(report.operations.allSatisfy { $0.runs == false }, "\(report)")
        #expect(report.operations.first?.reason?.contains("rules refuse it now") == true, "\(report)")

        // Cancelled, it is no longer listed; without a connection the report fails at once.
        #expect(
            await PresenceRulesTests.outcome { lastOnline.cancelDisconnectOperations(completionBlock: $0) } == nil)
        report = try await morgan.onDisconnectReport()
        #expect(report.operations.map(\.path) == ["/users/morgan/connections/phone"])
        morgan.goOffline()
        await #expect(throws: DatabaseError.self) { _ = try await morgan.onDisconnectReport() }
        morgan.close()
        await server.stop()
    }
}
