import Testing

@testable import RTDBClient

@Suite struct RetryPolicyTests {
    /// A delay in ms, for comparing.
    static func ms(_ policy: RetryPolicy, _ failures: Int, _ random: Double) -> Double {
        policy.delay(afterFailures: failures, random: random) / .milliseconds(1)
    }

    @Test func delaysGrowByThirtyPercentUpToThirtySeconds() {
        let policy = RetryPolicy()
        // With random = 1 the jitter keeps the whole delay.
        #expect(policy.delay(afterFailures: 0, random: 1) == .zero)
        #expect(policy.delay(afterFailures: 1, random: 1) == .seconds(1))
        #expect(abs(Self.ms(policy, 2, 1) - 1_300) < 0.001)
        #expect(abs(Self.ms(policy, 3, 1) - 1_690) < 0.001)
        #expect(policy.delay(afterFailures: 40, random: 1) == .seconds(30))
    }

    @Test func jitterKeepsBetweenThirtyAndOneHundredPercent() {
        let policy = RetryPolicy()
        #expect(abs(Self.ms(policy, 1, 0) - 300) < 0.001)
        #expect(abs(Self.ms(policy, 40, 0) - 9_000) < 0.001)
        #expect(policy.delay(afterFailures: 5, random: 0.5) < policy.delay(afterFailures: 5, random: 0.99))
    }
}

@Suite struct DatabaseURLTests {
    @Test func namespacesAndSchemes() {
        #expect(DatabaseURL("http://127.0.0.1:9000?ns=demo").socketBase == "ws://127.0.0.1:9000")
        #expect(DatabaseURL("http://127.0.0.1:9000?ns=demo").namespace == "demo")
        #expect(DatabaseURL("https://my-app.firebaseio.com").socketBase == "wss://my-app.firebaseio.com")
        #expect(DatabaseURL("https://my-app.firebaseio.com").namespace == "my-app")
        #expect(DatabaseURL("ws://localhost:9000").namespace == "demo")
    }

    @Test func emulatorHostRedirectsEveryInstance() {
        let url = DatabaseURL("https://my-app.firebaseio.com", emulatorHost: "127.0.0.1:9000")
        #expect(url.socketBase == "ws://127.0.0.1:9000")
        #expect(url.namespace == "my-app")
        #expect(
            DatabaseURL("https://my-app.firebaseio.com", emulatorHost: nil).socketBase == "wss://my-app.firebaseio.com")
    }

    @Test func referenceURLs() {
        let database = Database(url: "http://127.0.0.1:9000?ns=demo")
        #expect(database.reference(withPath: "users/morgan").url == "http://127.0.0.1:9000/users/morgan?ns=demo")
        #expect(database.reference().url == "http://127.0.0.1:9000?ns=demo")
    }
}
