import Foundation
import RTDBClient
import RTDBCore
import RTDBTestSupport
import Testing

/// Key files and ID token files as hostile input: each refusal names the problem, never a
/// value from the file, and nothing traps.
@Suite struct CredentialFileTests {
    static let cases: [(String, String)] = [
        ("[1, 2]", "the key file is not a JSON object"),
        (#"{"type": "authorized_user"}"#, "type is 'authorized_user', not 'service_account'"),
        (#"{"type": "service_account", "private_key_id": "k"}"#, "has no 'private_key'"),
        (
            #"{"private_key_id": "k", "private_key": "SECRET-PEM", "client_email": "a@b", "token_uri": "file:///etc/passwd"}"#,
            "'token_uri' is not an http(s) URL"
        ),
        ("{not json", "is not JSON"),
        ("", "is not JSON"),
    ]

    @Test func badKeyFilesAreRefusedByName() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for (index, (text, message)) in Self.cases.enumerated() {
            let path = directory.appendingPathComponent("key\(index).json").path
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            #expect {
                try ServiceAccountKey(contentsOf: path)
            } throws: { error in
                let said = "\(error)"
                return said.contains(message) && said.contains(path) && !said.contains("SECRET-PEM")
            }
        }
        let big = directory.appendingPathComponent("big.json").path
        try String(repeating: " ", count: (1 << 20) + 1).write(toFile: big, atomically: true, encoding: .utf8)
        #expect(throws: TokenProviderError("the key file \(big) is over 1024 KiB")) {
            try ServiceAccountKey(contentsOf: big)
        }
        #expect(throws: TokenProviderError.self) { try ServiceAccountKey(contentsOf: directory.path) }
    }

    @Test func badIDTokenFilesAreRefusedByName() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for (text, message) in [("\n \n", "is empty"), ("not-a-jwt", "does not hold a JWT")] {
            let path = directory.appendingPathComponent(UUID().uuidString).path
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            await #expect {
                try await IDTokenFileProvider(path: path).token(forcingRefresh: false)
            } throws: { error in "\(error)".contains(message) && !"\(error)".contains("not-a-jwt") }
        }
        await #expect(throws: TokenProviderError.self) {
            try await IDTokenFileProvider(path: directory.appendingPathComponent("missing").path)
                .token(forcingRefresh: false)
        }
    }
}
