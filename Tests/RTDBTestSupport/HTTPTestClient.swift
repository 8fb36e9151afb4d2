import Foundation
import RTDBCore

/// One HTTP/1.1 exchange over a fresh loopback connection (`Connection: close`).
public struct HTTPResponse: Sendable {
    /// The status code.
    public var status: Int
    /// Header fields, names lower-cased.
    public var headers: [String: String]
    /// The body text.
    public var body: String

    /// The body as JSON.
    public var json: JSONValue? { try? JSONParser.parse(body) }
}

/// Sends one request and reads the whole response, waiting for it at most `attempts` × 100 ms
/// (a bound that names a hang, not a speed).
public func http(
    _ method: String, _ target: String, port: Int, body: String? = nil, headers: [String: String] = [:],
    attempts: Int = 200
) async throws -> HTTPResponse {
    let client = try await RawTCPClient(port: port)
    defer { Task { await client.close() } }
    let host = headers.first { $0.key.lowercased() == "host" }?.value ?? "127.0.0.1:\(port)"
    var request = "\(method) \(target) HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n"
    for (name, value) in headers where name.lowercased() != "host" { request += "\(name): \(value)\r\n" }
    if let body { request += "Content-Length: \(body.utf8.count)\r\nContent-Type: application/json\r\n" }
    request += "\r\n" + (body ?? "")
    try await client.write(request)
    let raw = try await client.readToEnd(attempts: attempts)
    guard let split = raw.range(of: "\r\n\r\n") else { throw TestFailure("no HTTP head in \(raw)") }
    let lines = raw[..<split.lowerBound].components(separatedBy: "\r\n")
    let status = Int(lines[0].split(separator: " ")[1]) ?? 0
    var fields: [String: String] = [:]
    for line in lines.dropFirst() {
        guard let colon = line.firstIndex(of: ":") else { continue }
        fields[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }
    var body = String(raw[split.upperBound...])
    if fields["transfer-encoding"] == "chunked" { body = dechunk(body) }
    return HTTPResponse(status: status, headers: fields, body: body)
}

private func dechunk(_ text: String) -> String {
    var bytes = Substring(text)
    var result = ""
    while let lineEnd = bytes.range(of: "\r\n") {
        guard let size = Int(bytes[..<lineEnd.lowerBound], radix: 16), size > 0 else { break }
        let start = lineEnd.upperBound
        let utf8 = bytes[start...].utf8
        let end = utf8.index(utf8.startIndex, offsetBy: size)
        result += String(Substring(utf8[..<end]))
        bytes = bytes[end...].dropFirst(2)
    }
    return result
}
