import Foundation
import RTDBCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Reads and drives a standalone link (`presencetop proxy`) through its control interface.
public struct LinkControlClient: Sendable {
    /// The link's resource, `http://HOST:PORT/link`.
    public let url: URL

    /// A client for the control interface at `url` (its `/link` is added when the path is empty).
    public init(url: URL) {
        self.url =
            url.path.isEmpty || url.path == "/" ? url.appendingPathComponent(String(LinkControl.path.dropFirst())) : url
    }

    /// The link's mode, conditions and stats (``LinkControl/state(of:)``).
    public func state() async throws -> JSONValue {
        try await send(URLRequest(url: url))
    }

    /// Changes the link; returns its state after the change.
    public func apply(_ change: LinkControl.Change) async throws -> JSONValue {
        var request = URLRequest(url: url)
        request.httpMethod = "PUT"
        request.httpBody = Data(change.json.jsonString.utf8)
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        return try await send(request)
    }

    private func send(_ request: URLRequest) async throws -> JSONValue {
        var request = request
        request.timeoutInterval = 5
        let (data, response) = try await URLSession.shared.data(for: request)
        let json = try JSONParser.parse(bytes: data)
        guard let http = response as? HTTPURLResponse, http.statusCode == 200 else {
            throw LinkError.invalidRequest(json["error"]?.stringValue ?? "the control answered \(json)")
        }
        return json
    }
}
