import Foundation
import HTTPTypes
import Hummingbird
import RTDBCore
import RTDBRules

/// What a REST request asks for, read from its URL and headers
/// (docs/wire-protocol.md#rest-and-streaming).
struct RESTRequest {
    /// Lets a client that can only `POST` ask for another method; a valid header token, so the
    /// failable initializer cannot fail.
    static let methodOverrideHeader = HTTPField.Name("X-HTTP-Method-Override")!

    var method: HTTPRequest.Method
    var path: Path
    var namespace: String
    var parameters: [String: String]
    var query: QueryParams?
    var wantsEventStream: Bool
    /// Who the request comes from.
    var auth: RuleAuth

    /// Reads a request; its credential as `policy` says, at `now` (ms since the epoch).
    init(_ request: Request, defaultNamespace: String, policy: CredentialPolicy, now: UnixTime) throws(RESTError) {
        let parameters = RESTRequest.parameters(of: request)
        self.parameters = parameters

        method = request.method
        if method == .post, let override = request.headers[RESTRequest.methodOverrideHeader] {
            method = HTTPRequest.Method(override.uppercased()) ?? method
        }

        var rawPath = request.uri.path
        guard rawPath.hasSuffix(".json") else {
            throw RESTError(.notFound, "REST paths end in .json, as in /users/morgan.json")
        }
        rawPath.removeLast(5)
        var segments: [String] = []
        for raw in rawPath.split(separator: "/") {
            guard let segment = String(raw).removingPercentEncoding else {
                throw RESTError(.badRequest, "invalid percent-encoding in the path")
            }
            if !segment.isEmpty { segments.append(segment) }
        }
        let path = Path(segments: segments)
        let checked = path.writeTarget
        do throws(ValidationError) {
            for segment in checked.segments where !(segment == ".info" && segment == checked.front) {
                try Validation.validateKey(segment, at: checked)
            }
            if checked.count > Validation.maxDepth {
                throw ValidationError.tooDeep(path: checked.description, depth: checked.count)
            }
        } catch {
            throw RESTError(.badRequest, error.description)
        }
        self.path = path

        namespace = parameters["ns"] ?? RESTRequest.namespace(fromHost: request.head.authority) ?? defaultNamespace
        do {
            query = try QueryParams(restParameters: parameters)
        } catch {
            throw RESTError(.badRequest, error.description)
        }
        if parameters["shallow"] == "true", query != nil {
            throw RESTError(.badRequest, "shallow cannot be combined with query parameters")
        }
        wantsEventStream = request.headers[.accept]?.contains("text/event-stream") == true
        auth = try RESTRequest.auth(of: request, parameters: parameters, policy: policy, now: now)
    }

    /// A request's query parameters by name (the last wins when a name repeats).
    static func parameters(of request: Request) -> [String: String] {
        var parameters: [String: String] = [:]
        for (key, value) in request.uri.queryParameters { parameters[String(key)] = String(value) }
        return parameters
    }

    /// The namespace of a `<ns>.firebaseio.com`-style host, as the clients derive it.
    static func namespace(fromHost host: String?) -> String? {
        guard let host, !host.isEmpty else { return nil }
        let name = host.split(separator: ":").first.map(String.init) ?? host
        let labels = name.split(separator: ".")
        guard labels.count >= 3, Int(labels[0]) == nil else { return nil }
        return labels[0].lowercased()
    }

    var printMode: String? { parameters["print"] }
    var exportFormat: Bool { parameters["format"] == "export" }
}
