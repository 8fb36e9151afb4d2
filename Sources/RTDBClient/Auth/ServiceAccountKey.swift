import Foundation
import RTDBCore

/// A service account's key file, as the Google Cloud console downloads it (JSON with
/// `type: service_account`, `private_key_id`, `private_key`, `client_email`, `token_uri`).
public struct ServiceAccountKey: Sendable, CustomStringConvertible {
    /// The key's id, sent as the assertion's `kid`.
    public var privateKeyID: String
    /// The RSA private key, PEM.
    var privateKey: String
    /// The account, the assertion's `iss`.
    public var clientEmail: String
    /// Where the assertion is exchanged for an access token (its `aud`).
    public var tokenURI: URL
    /// The project the account belongs to, if the file says.
    public var projectID: String?

    /// Reads a key file's JSON; errors name the missing or wrong field, never a value.
    public init(json: JSONValue) throws(TokenProviderError) {
        guard case .object = json else { throw TokenProviderError("the key file is not a JSON object") }
        if let type = json["type"]?.stringValue, type != "service_account" {
            throw TokenProviderError(
                "the key file's type is '\(type)', not 'service_account' (create a key under IAM → Service accounts)")
        }
        func field(_ name: String) throws(TokenProviderError) -> String {
            guard let value = json[name]?.stringValue, !value.isEmpty else {
                throw TokenProviderError("the key file has no '\(name)' (is it a service account key?)")
            }
            return value
        }
        privateKeyID = try field("private_key_id")
        privateKey = try field("private_key")
        clientEmail = try field("client_email")
        let uri = try field("token_uri")
        guard let url = URL(string: uri), url.scheme == "https" || url.scheme == "http", url.host != nil else {
            throw TokenProviderError("the key file's 'token_uri' is not an http(s) URL")
        }
        tokenURI = url
        projectID = json["project_id"]?.stringValue
    }

    /// Reads the key file at `path`.
    public init(contentsOf path: String) throws(TokenProviderError) {
        let data = try CredentialFile.read(path, limit: 1 << 20, what: "the key file")
        let json: JSONValue
        do {
            json = try JSONParser.parse(bytes: data)
        } catch {
            throw TokenProviderError("the key file \(path) is not JSON: \(error)")
        }
        do throws(TokenProviderError) {
            try self.init(json: json)
        } catch {
            throw TokenProviderError("\(path): \(error.description)")
        }
    }

    /// The account and key id, never the key.
    public var description: String { "ServiceAccountKey(\(clientEmail), key \(privateKeyID))" }
}
