import Foundation
import RTDBCore
import RTDBWire

/// An end user's Firebase ID token kept in a file by something else (an app, a script that
/// refreshes it): read at every request for a credential, so a replaced file is picked up when
/// the server says the last token expired.
public struct IDTokenFileProvider: DatabaseTokenProvider {
    /// The file's path.
    public let path: String

    /// Reads tokens from `path`.
    public init(path: String) {
        self.path = path
    }

    /// The token the file holds now (surrounding white space dropped).
    public func token(forcingRefresh: Bool) async throws -> DatabaseToken {
        let data = try CredentialFile.read(path, limit: 64 << 10, what: "the ID token file")
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { throw TokenProviderError("the ID token file \(path) is empty") }
        guard let claims = try? AuthToken(credential: text) else {
            throw TokenProviderError("the ID token file \(path) does not hold a JWT (header.payload.signature)")
        }
        return DatabaseToken(
            value: text, kind: .user, expiresAt: claims.expiresAt.map(UnixTime.init(secondsSince1970:)))
    }
}
