import PresenceLab
import Testing

/// Database URLs as users write them, read as the SDKs read them.
@Suite struct ServerTargetTests {
    struct Case: Sendable, CustomStringConvertible {
        var url: String
        var emulator: String? = nil
        /// `scheme://host:port ns` and whether local, or nil when refused.
        var expected: String?
        var description: String { url }
    }

    static let cases: [Case] = [
        Case(url: "http://127.0.0.1:9000?ns=demo", expected: "http://127.0.0.1:9000 demo local"),
        Case(url: "http://localhost:9000", expected: "http://localhost:9000 demo local"),
        Case(url: "https://my-app.firebaseio.com", expected: "https://my-app.firebaseio.com:443 my-app remote"),
        Case(
            url: "https://my-app-default-rtdb.firebaseio.com/",
            expected: "https://my-app-default-rtdb.firebaseio.com:443 my-app-default-rtdb remote"),
        Case(
            url: "https://my-app.europe-west1.firebasedatabase.app",
            expected: "https://my-app.europe-west1.firebasedatabase.app:443 my-app remote"),
        Case(url: "https://My-App.firebaseio.com?ns=other", expected: "https://my-app.firebaseio.com:443 other remote"),
        Case(url: "wss://db.example.com:8443", expected: "https://db.example.com:8443 db remote"),
        Case(url: "http://192.0.2.7:9000?ns=a", expected: "http://192.0.2.7:9000 a remote"),
        Case(
            url: "https://my-app.firebaseio.com", emulator: "127.0.0.1:9000",
            expected: "http://127.0.0.1:9000 my-app local"),
        Case(url: "ftp://x", expected: nil),
        Case(url: "http://host-without-port", expected: nil),
        Case(url: "https://my-app.firebaseio.com/path", expected: nil),
        Case(url: "https://my-app.firebaseio.com?ns=a/b", expected: nil),
        Case(url: "https://my-app.firebaseio.com", emulator: "not a host", expected: nil),
    ]

    @Test(arguments: cases) func reads(_ test: Case) {
        let target = ServerTarget(url: test.url, emulatorHost: test.emulator)
        let read = target.map {
            "\($0.scheme)://\($0.host):\($0.port) \($0.namespace) \($0.isLocal ? "local" : "remote")"
        }
        #expect(read == test.expected)
    }

    @Test func aDirectClientsURLKeepsTheNamespace() {
        #expect(
            ServerTarget(url: "https://my-app.europe-west1.firebasedatabase.app", emulatorHost: nil)?.url
                == "https://my-app.europe-west1.firebasedatabase.app?ns=my-app")
        #expect(
            ServerTarget(url: "http://127.0.0.1:9000?ns=demo", emulatorHost: nil)?.url
                == "http://127.0.0.1:9000?ns=demo")
    }
}
