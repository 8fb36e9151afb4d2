import ArgumentParser
import Foundation
import PresenceLab
import RTDBClient
import RTDBCore

/// How the dashboard signs in to a `--url` database, as Google's own tools take credentials.
///
/// One of a service account's key file (`--credentials`, else `GOOGLE_APPLICATION_CREDENTIALS`
/// for a database not on this machine), an end user's ID token file, an email and password, or a
/// legacy database secret; `--as-uid` narrows admin access to one user's under the rules.
/// Secrets are read from files, never taken on the command line (where `ps` shows them).
struct CredentialOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "A service account's key file for --url: admin access, as Google's tools sign in "
                + "(default: $GOOGLE_APPLICATION_CREDENTIALS, for a database not on this machine).",
            valueName: "key.json"))
    var credentials: String?

    @Option(
        name: .customLong("as-uid"),
        help: "Act as this user under the rules (admin access narrowed with authvar, as databaseAuthVariableOverride).")
    var asUID: String?

    @Option(help: "A file holding an end user's Firebase ID token; read again when the server says it expired.")
    var idTokenFile: String?

    @Option(help: "Sign in as this end user through Firebase Auth (honours FIREBASE_AUTH_EMULATOR_HOST).")
    var email: String?

    @Option(help: "The file holding --email's password.")
    var passwordFile: String?

    @Option(help: "The project's Web API key, for --email (Firebase console, Project settings).")
    var apiKey: String?

    @Option(help: "A file holding a legacy database secret (admin access, sent with auth).")
    var databaseSecretFile: String?

    func validate() throws {
        let given = [
            ("--credentials", credentials), ("--id-token-file", idTokenFile), ("--email", email),
            ("--database-secret-file", databaseSecretFile),
        ].filter { $0.1 != nil }.map(\.0)
        if given.count > 1 { throw ValidationError("\(given.joined(separator: " and ")) cannot be used together") }
        if email != nil, passwordFile == nil || apiKey == nil {
            throw ValidationError("--email needs --password-file and --api-key")
        }
        if email == nil, passwordFile != nil || apiKey != nil {
            throw ValidationError("--password-file and --api-key go with --email")
        }
        if let asUID {
            if asUID.isEmpty || asUID.utf8.count > 128 {
                throw ValidationError("--as-uid must be 1 to 128 bytes")
            }
            if idTokenFile != nil || email != nil {
                throw ValidationError("--as-uid narrows admin access; an end user's credential is that user already")
            }
        }
    }

    /// Whether any credential was named on the command line.
    var isGiven: Bool { credentials != nil || idTokenFile != nil || email != nil || databaseSecretFile != nil }

    /// The provider for `target` and who it signs in as (words for the header); nil when the
    /// watcher keeps the emulator-style token of a local server.
    ///
    /// - Throws: `ValidationError` naming the file or setting and the problem, never a secret.
    func provider(
        for target: ServerTarget, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> (provider: any DatabaseTokenProvider, identity: String)? {
        let authVariable: JSONValue? = asUID.map { ["uid": .string($0)] }
        var keyFile = credentials
        if keyFile == nil, !isGiven, !target.isLocal, let path = environment["GOOGLE_APPLICATION_CREDENTIALS"],
            !path.isEmpty
        {
            keyFile = path
        }
        if let keyFile {
            let key: ServiceAccountKey
            do {
                key = try ServiceAccountKey(contentsOf: keyFile)
            } catch {
                throw ValidationError("--credentials: \(error.description)")
            }
            let provider = ServiceAccountTokenProvider(key: key, actingAs: authVariable)
            return (provider, asUID.map { "uid \($0) via \(key.clientEmail)" } ?? "\(key.clientEmail) (admin)")
        }
        if let idTokenFile {
            return (IDTokenFileProvider(path: idTokenFile), "the ID token in \(idTokenFile)")
        }
        if let email, let passwordFile, let apiKey {
            let password = try Self.secret(in: passwordFile, option: "--password-file")
            do {
                let provider = try EmailPasswordTokenProvider(
                    apiKey: apiKey, email: email, password: password, environment: environment)
                return (provider, email)
            } catch {
                throw ValidationError("--email: \(error.description)")
            }
        }
        if let databaseSecretFile {
            let secret = try Self.secret(in: databaseSecretFile, option: "--database-secret-file")
            var token = DatabaseToken(value: secret, kind: .user)
            token.authVariable = authVariable
            return (
                StaticTokenProvider(token),
                asUID.map { "uid \($0) via the database secret" } ?? "database secret (admin)"
            )
        }
        if let asUID {
            // A local server or emulator: its admin credential, narrowed.
            var token = DatabaseToken(credential: "owner")
            token.authVariable = authVariable
            guard target.isLocal else {
                throw ValidationError("--as-uid on \(target.url) needs --credentials (a service account) to narrow")
            }
            return (StaticTokenProvider(token), "uid \(asUID) (admin narrowed)")
        }
        return nil
    }

    /// The first line of a secret's file, which must not be empty.
    static func secret(in path: String, option: String) throws -> String {
        let text: String
        do {
            text = try TextFile.text(at: path, limit: 1 << 20)
        } catch {
            throw ValidationError("\(option): \(error)")
        }
        let secret = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        guard !secret.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw ValidationError("\(option): \(path) is empty")
        }
        return secret
    }
}
