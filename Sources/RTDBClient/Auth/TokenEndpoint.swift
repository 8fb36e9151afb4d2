import Foundation
import RTDBCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One POST to a token service (Google's OAuth2 token endpoint, Firebase Auth's REST API), its
/// JSON answer read, and its refusal turned into words that name the service and its reason.
///
/// The request's body holds secrets (an assertion, a password, a refresh token): it never
/// appears in an error.
struct TokenEndpoint: Sendable {
    /// Where requests go.
    let url: URL
    /// What the errors call the service ("the token endpoint", "Firebase Auth").
    let name: String

    /// Posts `form` as `application/x-www-form-urlencoded`.
    func post(form: [(String, String)]) async throws -> JSONValue {
        let body = form.map { "\(Self.formEncoded($0.0))=\(Self.formEncoded($0.1))" }.joined(separator: "&")
        return try await post(body: Data(body.utf8), contentType: "application/x-www-form-urlencoded")
    }

    /// Posts `json` as `application/json`.
    func post(json: JSONValue) async throws -> JSONValue {
        try await post(body: Data(json.jsonString.utf8), contentType: "application/json")
    }

    private func post(body: Data, contentType: String) async throws -> JSONValue {
        var request = URLRequest(url: url, timeoutInterval: 30)
        request.httpMethod = "POST"
        request.setValue(contentType, forHTTPHeaderField: "Content-Type")
        request.httpBody = body
        let service = "\(name) (\(url.scheme ?? "?")://\(url.host ?? "?")\(url.port.map { ":\($0)" } ?? "")\(url.path))"
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await URLSession.shared.data(for: request)
        } catch {
            throw TokenProviderError("could not reach \(service): \(error.localizedDescription)")
        }
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        let json = try? JSONParser.parse(bytes: Array(data))
        guard (200..<300).contains(status) else {
            throw TokenProviderError("\(service) refused the request (HTTP \(status)): \(Self.reason(json))")
        }
        guard let json, case .object = json else {
            throw TokenProviderError("\(service) answered with something other than a JSON object")
        }
        return json
    }

    /// The reason a refusal gives: OAuth2's `error` and `error_description`, or Google APIs'
    /// `error.message` (Firebase Auth's `INVALID_PASSWORD`, `EMAIL_NOT_FOUND`, …).
    private static func reason(_ json: JSONValue?) -> String {
        guard let json else { return "no JSON in the answer" }
        if let message = json["error"]?["message"]?.stringValue { return message }
        let code = json["error"]?.stringValue
        let description = json["error_description"]?.stringValue
        switch (code, description) {
        case (let code?, let description?): return "\(code): \(description)"
        case (let code?, nil): return code
        default: return "no reason given"
        }
    }

    /// `value` escaped for a form body (RFC 3986 unreserved characters kept).
    static func formEncoded(_ value: String) -> String {
        var allowed = CharacterSet.alphanumerics.intersection(
            CharacterSet(charactersIn: Unicode.Scalar(0)...Unicode.Scalar(127)))
        allowed.insert(charactersIn: "-._~")
        return value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value
    }
}
