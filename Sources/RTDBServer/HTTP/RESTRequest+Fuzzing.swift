import HTTPTypes
import Hummingbird
import NIOCore
import RTDBCore

/// The REST API's reading of a request target, for the fuzz target (`rest`) in release builds
/// as in debug ones.
@_spi(Fuzzing) public enum RESTTargetReader {
    /// The query a `GET` of `target` (`/path.json?query`) asks for, or nil when the request is
    /// refused or asks for none.
    public static func query(ofTarget target: String) -> QueryParams? {
        let head = HTTPRequest(method: .get, scheme: "http", authority: "127.0.0.1", path: target)
        let request = Request(head: head, body: RequestBody(buffer: ByteBuffer()))
        let parsed = try? RESTRequest(request, defaultNamespace: "demo", policy: CredentialPolicy(), now: .epoch)
        return parsed?.query
    }
}
