import ArgumentParser
import Foundation

extension ServeCommand {
    /// The environment variable that may hold the admin secret, out of `ps`.
    static let secretVariable = "PRESENCETOP_AUTH_SECRET"

    /// The admin secret: `--auth-secret` (with a warning: every local user reads a command line),
    /// `--auth-secret-file`'s first line, or ``secretVariable``; nil without any.
    ///
    /// - Throws: `ValidationError` naming the file or the variable, never the secret.
    func secret(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> String? {
        if let authSecret {
            FileHandle.standardError.write(
                Data(
                    "presencetop serve: warning: --auth-secret on the command line can be read by every local user (ps, /proc/PID/cmdline); use --auth-secret-file FILE or \(Self.secretVariable)\n"
                        .utf8))
            return authSecret
        }
        if let authSecretFile { return try CredentialOptions.secret(in: authSecretFile, option: "--auth-secret-file") }
        guard let value = environment[Self.secretVariable] else { return nil }
        guard !value.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw ValidationError("\(Self.secretVariable) is set but empty (unset it to serve without a secret)")
        }
        return value
    }
}
