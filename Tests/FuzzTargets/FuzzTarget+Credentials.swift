import Foundation
import PresenceLab
import RTDBClient
import RTDBCore

extension FuzzTarget {
    /// What `--credentials`, `--id-token-file` and a database URL bring in: a service account key
    /// file, a token endpoint's answer, an ID token, and the URL of a database.
    static func credentials(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        if let json = try? JSONParser.parse(text) {
            _ = try? ServiceAccountKey(json: json)
            let issued = UnixTime(millisecondsSince1970: 1_700_000_000_000)
            if let token = try? ServiceAccountTokenProvider.accessToken(in: json, issuedAt: issued, authVariable: nil) {
                fuzzInvariant(token.expiresAt.map { $0 >= issued } ?? true, "a token that expired before it was issued")
                let secret = json["access_token"]?.stringValue ?? ""
                fuzzInvariant(!Self.isPrinted(secret, in: "\(token)"), "the token's text was printed")
            }
        }
        let token = DatabaseToken(credential: text)
        fuzzInvariant(!Self.isPrinted(text, in: "\(token)"), "the ID token's text was printed")
        for line in text.split(separator: "\n", omittingEmptySubsequences: true).prefix(4) {
            if let target = ServerTarget(url: String(line), emulatorHost: nil) {
                fuzzInvariant((1...65_535).contains(target.port), "a port out of range: \(target.port)")
                fuzzInvariant(!target.host.isEmpty, "a database URL without a host")
            }
        }
    }

    /// Whether `secret` shows in `description`; only a secret that could not be part of the
    /// description's own words counts (12 bytes or more, with a `_`, which neither its words nor
    /// its dates hold).
    static func isPrinted(_ secret: String, in description: String) -> Bool {
        guard secret.utf8.count >= 12, secret.contains("_") else { return false }
        return description.contains(secret)
    }
}
