import Dashboard
import Foundation
import RTDBCore
import Testing
import WatchModel

/// What the dashboard may do to a database that is not on this machine.
@Suite struct DashboardAccessTests {
    static let writingKeys: [Character] = ["n", "b", "l", "w", "W", "t", "+", "-", "a", "d", "x", "r"]

    private static func state(_ access: WatchSnapshot.Access) -> DashboardState {
        var state = Fixture.state(width: 220, height: 40)
        state.snapshot?.server = "https://my-app.firebaseio.com?ns=my-app"
        state.snapshot?.access = access
        return state
    }

    @Test func readOnlyAsksNothingOfTheSimulationAndSaysWhy() {
        var state = Self.state(
            .init(identity: "ops@my-app.iam.gserviceaccount.com (admin)", isReadOnly: true, isLocal: false))
        for key in Self.writingKeys {
            #expect(DashboardReducer.reduce(&state, .key(.character(key))).isEmpty, "key \(key) is off")
            #expect(
                state.timeline.notice?.text.hasPrefix("read-only: nothing is written to https://my-app.firebaseio.com")
                    == true)
            #expect(state.timeline.notice?.text.contains("--device") == true, "and how to turn it on")
        }
        // Looking around still works.
        #expect(DashboardReducer.reduce(&state, .key(.character("q"))) == [.quit])
    }

    @Test func theHeaderNamesTheDatabaseWhoAndReadOnly() {
        var state = Self.state(
            .init(identity: "uid alice via ops@my-app.iam.gserviceaccount.com", isReadOnly: true, isLocal: false))
        state.snapshot?.thisDevice = nil  // read-only: no device of its own
        let text = DashboardRenderer().render(state).text
        #expect(text.contains("Connection read-only to https://"), "\(text)")
        #expect(text.contains("database https://my-app.firebaseio.com?ns=my-app"), "\(text)")
        #expect(text.contains("as uid alice via ops@my-app.iam.gserviceaccount.com"), "\(text)")
        #expect(text.contains("read-only: writes nothing (--device to take part)"), "\(text)")
    }

    @Test func withThisDeviceAskedInOnlyItsOwnWritesGo() {
        var state = Self.state(
            .init(identity: "alice@example.com", isReadOnly: false, isLocal: false, linkInPath: false))
        #expect(DashboardReducer.reduce(&state, .key(.character("w"))) == [.queueWrites(1)])
        #expect(DashboardReducer.reduce(&state, .key(.character("t"))) == [.runTransaction])
        for key: Character in ["r", "a", "d", "x", "n", "b", "l"] {
            #expect(DashboardReducer.reduce(&state, .key(.character(key))).isEmpty, "key \(key) is off")
        }
        _ = DashboardReducer.reduce(&state, .key(.character("n")))
        #expect(state.timeline.notice?.text.contains("cannot stand in the middle of TLS") == true)
    }

    @Test func aLocalServerKeepsEveryKey() {
        var state = Fixture.state(width: 120, height: 40)
        for key in Self.writingKeys where key != "r" {
            #expect(!DashboardReducer.reduce(&state, .key(.character(key))).isEmpty, "key \(key)")
        }
    }
}
