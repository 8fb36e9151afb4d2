import Testing

@testable import RTDBClient

@Suite struct RetryPolicyTests {
    @Test func delaysGrowByThirtyPercentUpToThirtySeconds() {
        let policy = RetryPolicy()
        // With random = 1 the jitter keeps the whole delay.
        #expect(policy.delay(afterFailures: 0, random: 1) == 0)
        #expect(policy.delay(afterFailures: 1, random: 1) == 1_000)
        #expect(abs(policy.delay(afterFailures: 2, random: 1) - 1_300) < 0.001)
        #expect(abs(policy.delay(afterFailures: 3, random: 1) - 1_690) < 0.001)
        #expect(policy.delay(afterFailures: 40, random: 1) == 30_000)
    }

    @Test func jitterKeepsBetweenThirtyAndOneHundredPercent() {
        let policy = RetryPolicy()
        #expect(abs(policy.delay(afterFailures: 1, random: 0) - 300) < 0.001)
        #expect(abs(policy.delay(afterFailures: 40, random: 0) - 9_000) < 0.001)
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
