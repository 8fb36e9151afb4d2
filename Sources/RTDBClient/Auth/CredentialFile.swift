import Foundation

/// Reads a file that holds a credential (a key file, an ID token), bounded, with errors that
/// name the file and never its content.
enum CredentialFile {
    /// The bytes of `path`, refused past `limit` bytes; `what` names the file in errors.
    static func read(_ path: String, limit: Int, what: String) throws(TokenProviderError) -> Data {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw TokenProviderError("cannot read \(what) \(path): \(error.localizedDescription)")
        }
        guard data.count <= limit else { throw TokenProviderError("\(what) \(path) is over \(limit >> 10) KiB") }
        return data
    }
}
