import Hummingbird
import Testing

@testable import LinkSim

/// Which `Host` headers the control interface answers: addresses and localhost, never a name.
@Suite struct ControlHostTests {
    @Test(arguments: [
        "", "attacker.example", "attacker.example:9101", "localhost.attacker.example", "127.0.0.1.nip.io",
        "1.2.3.4.5", "256.1.1.1", "1.2.3", "127.0.0.1:90ab", "[", "[]", "[::1", "[evil.example]:80", "127.0.0.01234",
        "\u{FF11}27.0.0.1",
    ])
    func namesAreRefused(host: String) {
        #expect(!ControlRequestGuard<BasicRequestContext>.namesAnAddress(host))
    }

    @Test(arguments: ["127.0.0.1", "127.0.0.1:9101", "localhost", "LOCALHOST:9101", "[::1]:9101", "192.168.1.20:9101"])
    func addressesAreAnswered(host: String) {
        #expect(ControlRequestGuard<BasicRequestContext>.namesAnAddress(host))
    }
}
