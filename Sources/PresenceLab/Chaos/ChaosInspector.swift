import Foundation
import RTDBCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Reads what the server holds over REST, as the admin: the checker's own view, independent of
/// the client engine under test.
struct ChaosInspector: Sendable {
    let port: @Sendable () -> Int

    /// The JSON at `path`, or nil when the server does not answer (it may be restarting).
    func read(_ path: String) async -> JSONValue? {
        guard let url = URL(string: "http://127.0.0.1:\(port())/\(path).json?ns=chaos&auth=owner") else { return nil }
        var request = URLRequest(url: url)
        request.timeoutInterval = 10
        guard let (data, response) = try? await URLSession.shared.data(for: request),
            (response as? HTTPURLResponse)?.statusCode == 200
        else { return nil }
        return try? JSONParser.parse(bytes: data)
    }
}
