import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import RTDBCore
import RTDBWire
import ServiceLifecycle

/// The REST API (`/<path>.json`) and its streaming form (docs/wire-protocol.md#rest-and-streaming).
struct RESTResponder: HTTPResponder {
    typealias Context = ServerRequestContext

    /// What the server's sessions share too: the namespaces, the settings, the clocks, the log.
    let services: ServerServices

    // The names are valid header tokens: `HTTPField.Name` fails only on characters they lack.
    static let etagHeader = HTTPField.Name("ETag")!
    static let wantsETagHeader = HTTPField.Name("X-Firebase-ETag")!

    func respond(to request: Request, context: Context) async throws -> Response {
        do {
            if request.uri.path == "/healthz" || request.uri.path == "/readyz" { return try await health(request) }
            if request.uri.path == "/metrics" { return try await metrics(request) }
            if request.uri.path.hasPrefix("/.admin/") { return try admin(request) }
            if request.uri.path == "/.settings/rules.json" { return try await rulesSettings(request) }
            if request.uri.path.hasPrefix("/.inspect/") { return try await inspect(request) }
            let rest = try RESTRequest(
                request, defaultNamespace: services.configuration.defaultNamespace,
                policy: services.configuration.credentialPolicy,
                now: services.clock())
            let engine: DatabaseEngine
            do {
                engine = try await services.registry.lease(rest.namespace)
            } catch let error as NamespaceError {
                throw RESTError(error)
            }
            defer { services.registry.release(rest.namespace) }
            switch rest.method {
            case .get:
                if let query = rest.query, let missing = await engine.missingIndex(query, at: rest.path) {
                    // As Firebase's REST API: an unindexed ordered query is refused, not served slowly.
                    throw RESTError(.badRequest, FirebaseText.indexNotDefined(missing, path: "\(rest.path)"))
                }
                if rest.wantsEventStream { return try await stream(rest, engine: engine) }
                return try await get(rest, request: request, engine: engine)
            case .put, .delete:
                var request = request
                let data: JSONValue = rest.method == .delete ? .null : try await body(of: &request)
                return try await put(rest, data: data, request: request, engine: engine)
            case .patch:
                var request = request
                guard case .object(let children) = try await body(of: &request) else {
                    throw RESTError(.badRequest, "PATCH needs a JSON object of paths to values")
                }
                let write = try await engine.updateStored(rest.path, data: children, auth: rest.auth).get(
                    or: RESTError.init)
                try stored(write)
                return reply(rest, .object(children))
            case .post:
                var request = request
                let data = try await body(of: &request)
                let write = try await engine.pushStored(rest.path, data: data, auth: rest.auth).get(
                    or: RESTError.init)
                try stored(write)
                return reply(rest, ["name": .string(write.name ?? "")])
            default:
                throw RESTError.methodNotAllowed(rest.method.rawValue)
            }
        } catch let error as RESTError {
            return error.response
        }
    }

    /// A write the disk did not take (refused, or given up as the server stopped) is answered
    /// 503, never 2xx.
    private func stored(_ write: DatabaseEngine.StoredWrite) throws {
        guard write.isStored else {
            throw RESTError(
                .serviceUnavailable,
                "the write could not be stored (the database's disk failed) and was not applied; try again later")
        }
    }

    private func get(_ rest: RESTRequest, request: Request, engine: DatabaseEngine) async throws -> Response {
        // Every write applied before the request (from any connection), once stored.
        let (node, result): (Node, Node)
        do {
            (node, result, _) = try await engine.read(rest.path, query: rest.query, auth: rest.auth)
        } catch {
            throw RESTError(error)
        }
        var headers = HTTPFields()
        // The ETag is a hash of all the data read: only when asked for (a million children take
        // seconds to hash).
        if request.headers[RESTResponder.wantsETagHeader] == "true" || request.headers[.ifNoneMatch] != nil {
            let etag = RESTResponder.etag(of: node)
            if let ifNoneMatch = request.headers[.ifNoneMatch], ifNoneMatch == etag {
                return Response(status: .notModified, headers: [RESTResponder.etagHeader: etag])
            }
            headers[RESTResponder.etagHeader] = etag
        }
        if rest.parameters["shallow"] == "true" {
            return RESTResponder.json(result.shallowJSON, pretty: rest.printMode == "pretty", headers: headers)
        }
        if rest.printMode == "pretty" {
            let json = rest.exportFormat ? result.exportJSON : result.plainJSON(arrays: true)
            return RESTResponder.json(json, pretty: true, headers: headers)
        }
        // Written straight to text: no JSON tree of what may be a million children.
        var text: [UInt8] = []
        text.reserveCapacity(result.estimatedSize)
        if rest.exportFormat { result.writeExport(to: &text) } else { result.writePlain(to: &text, arrays: true) }
        headers[.contentType] = "application/json; charset=utf-8"
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: text)))
    }

    private func put(_ rest: RESTRequest, data: JSONValue, request: Request, engine: DatabaseEngine) async throws
        -> Response
    {
        let ifMatch = request.headers[.ifMatch]
        let expectedHash = ifMatch.map { $0 == "null_etag" ? "" : $0 }
        switch await engine.setStored(rest.path, data: data, expectedHash: expectedHash, auth: rest.auth) {
        case .success(let write):
            try stored(write)
            // A caller the rules do not let read here gets back what it sent: the stored form of
            // an increment (even by 0) or its ETag would tell it what was there.
            guard await engine.mayRead(rest.path, auth: rest.auth) else {
                return reply(rest, rest.method == .delete ? .null : data)
            }
            // The echo of what the request wrote: a writer sees its own write.
            let written = await engine.snapshot(rest.path).node
            var headers = HTTPFields()
            if ifMatch != nil { headers[RESTResponder.etagHeader] = RESTResponder.etag(of: written) }
            if rest.method == .delete { return reply(rest, .null, headers: headers) }
            return reply(
                rest, rest.exportFormat ? written.exportJSON : written.plainJSON(arrays: true), headers: headers)
        case .failure(let error) where error.status == .dataStale:
            guard await engine.mayRead(rest.path, auth: rest.auth) else {
                throw RESTError(.preconditionFailed, "\(error.message); the rules do not let you read it")
            }
            // A writer whose conditional write lost sees what won (firebase-admin retries on it).
            let current = await engine.snapshot(rest.path).node
            return RESTResponder.json(
                current.plainJSON(arrays: true), status: .preconditionFailed,
                headers: [RESTResponder.etagHeader: RESTResponder.etag(of: current)])
        case .failure(let error):
            throw RESTError(error)
        }
    }

    private func stream(_ rest: RESTRequest, engine: DatabaseEngine) async throws(RESTError) -> Response {
        let outlet = Outlet()
        do {
            try await engine.addStream(
                outlet: outlet, path: rest.path, query: rest.query ?? .default, export: rest.exportFormat,
                auth: rest.auth)
        } catch {
            throw RESTError(error)
        }
        let interval = services.configuration.streamKeepAliveInterval
        let headers: HTTPFields = [.contentType: "text/event-stream", .cacheControl: "no-cache"]
        return Response(
            status: .ok, headers: headers,
            body: ResponseBody { writer in
                let ticker = Ticker(every: interval, on: services.timers)
                let keepAlive = Task {
                    while await ticker.next() != nil { outlet.send(.event(name: "keep-alive", data: "null")) }
                }
                do {
                    try await withGracefulShutdownHandler {
                        streaming: while let batch = await outlet.nextBatch() {
                            var buffer = ByteBuffer()
                            for item in batch {
                                guard case .event(let name, let data) = item else {
                                    if !buffer.readableBytesView.isEmpty { try await writer.write(buffer) }
                                    break streaming
                                }
                                buffer.writeString("event: \(name)\ndata: \(data)\n\n")
                            }
                            try await writer.write(buffer)
                        }
                    } onGracefulShutdown: {
                        outlet.send(.close)
                    }
                } catch {
                    // The client went away.
                }
                keepAlive.cancel()
                outlet.finish()
                await engine.removeListens(of: outlet)
                try? await writer.finish(nil)
            })
    }

    private func admin(_ request: Request) throws -> Response {
        guard try isAdmin(request) else {
            throw RESTError(.unauthorized, "admin endpoints need the admin credential ('Authorization: Bearer owner')")
        }
        guard request.uri.path == "/.admin/connections.json" else {
            throw RESTError(.notFound, "unknown admin endpoint \(request.uri.path)")
        }
        return RESTResponder.json(.array(services.connections.connections.map(\.json)))
    }

    private func body(of request: inout Request) async throws -> JSONValue {
        let buffer = try await rawBody(of: &request)
        do {
            return try JSONParser.parse(bytes: buffer.readableBytesView)
        } catch {
            services.logger.info("REST \(request.uri.path): the body is not JSON: \(error)")
            throw RESTError(.badRequest, FirebaseText.invalidJSON)
        }
    }

    /// The whole request body, up to the server's limit (`413` past it, at once when the declared
    /// `Content-Length` is over it, before any of the body is read).
    func rawBody(of request: inout Request) async throws(RESTError) -> ByteBuffer {
        if let declared = request.headers[.contentLength].flatMap({ Int($0) }),
            declared > services.configuration.maxRESTBodyBytes
        {
            throw RESTError(
                .contentTooLarge,
                "the request body (Content-Length \(declared)) is over the limit of \(services.configuration.maxRESTBodyBytes) bytes",
                headers: [.connection: "close"])
        }
        do {
            return try await request.collectBody(upTo: services.configuration.maxRESTBodyBytes)
        } catch {
            throw RESTError(
                .contentTooLarge,
                "the request body is over the limit of \(services.configuration.maxRESTBodyBytes) bytes")
        }
    }

    private func reply(_ rest: RESTRequest, _ json: JSONValue, headers: HTTPFields = [:]) -> Response {
        if rest.printMode == "silent" { return Response(status: .noContent, headers: headers) }
        return RESTResponder.json(json, pretty: rest.printMode == "pretty", headers: headers)
    }

    /// The ETag of a location: its node hash, or `null_etag` when it holds no data.
    static func etag(of node: Node) -> String {
        node.isEmpty ? "null_etag" : node.hashString
    }

    static func json(
        _ json: JSONValue, status: HTTPResponse.Status = .ok, pretty: Bool = false, headers: HTTPFields = [:]
    ) -> Response {
        var headers = headers
        headers[.contentType] = "application/json; charset=utf-8"
        let text = pretty ? json.prettyJSONString : json.jsonString
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }
}

extension Result {
    /// The success value, or the failure converted to another error and thrown.
    func get<E: Error>(or convert: (Failure) -> E) throws(E) -> Success {
        switch self {
        case .success(let value): return value
        case .failure(let error): throw convert(error)
        }
    }
}
