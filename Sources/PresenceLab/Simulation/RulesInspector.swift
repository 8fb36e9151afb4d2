import Foundation
import RTDBClient
import RTDBCore
import RTDBRules

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Reads a server's rules report: over REST from `presencetop serve`'s
/// `/.inspect/coverage.json`, with the watcher's credential, or from a simulated server's engine.
struct RulesInspector: Sendable {
    /// The server, where its report is read over REST.
    let target: ServerTarget
    /// Which server it is (a simulated one is read in place).
    let server: SimulationOptions.Server
    /// The watcher's credentials, which the report's request carries.
    let credentials: (any DatabaseTokenProvider)?

    /// The rules with their evaluation counts and latest denials, read from the server's
    /// `/.inspect/coverage.json` (one request; ask while something shows it, every few seconds),
    /// or a simulated server's engine.
    func summary() async -> RulesSummary {
        if case .simulated(let stage) = server {
            guard let engine = stage.server.engine else { return RulesSummary(problem: "the server is down") }
            return RulesSummary(await engine.securityRules.coverageReport())
        }
        var components = URLComponents()
        (components.scheme, components.host, components.port) = (target.scheme, target.host, target.port)
        components.path = "/.inspect/coverage.json"
        components.queryItems = [URLQueryItem(name: "ns", value: target.namespace)]
        do {
            components.queryItems? += try await Self.credentialParameters(credentials)
        } catch {
            return RulesSummary(problem: "no credential for the rules report: \(error)")
        }
        guard let url = components.url else { return RulesSummary(problem: "no URL for \(target)") }
        var request = URLRequest(url: url)
        request.timeoutInterval = 5
        do {
            let (data, response) = try await URLSession.shared.data(for: request)
            let status = (response as? HTTPURLResponse)?.statusCode ?? 0
            if status == 404 {
                return RulesSummary(
                    problem: "this server keeps no rules coverage report (only presencetop serve does; "
                        + "Firebase keeps its rules evaluation to itself)")
            }
            guard status == 200 else {
                let reason = (try? JSONParser.parse(bytes: data))?["error"]?.stringValue ?? "no reason given"
                return RulesSummary(problem: "the rules report was refused (HTTP \(status): \(reason))")
            }
            return RulesSummary(try RulesCoverageReport(json: JSONParser.parse(bytes: data)))
        } catch let error as URLError {
            // Its description would carry the URL, and the URL the credential: the words only.
            return RulesSummary(problem: "the rules report could not be read: \(error.localizedDescription)")
        } catch {
            return RulesSummary(problem: "\(error)")
        }
    }

    /// The query parameters that carry the watcher's credential over REST, as the SDKs send it:
    /// `access_token=` for an OAuth2 token, `auth=` otherwise, and `auth_variable_override`
    /// when acting as a user.
    static func credentialParameters(_ provider: (any DatabaseTokenProvider)?) async throws -> [URLQueryItem] {
        guard let provider else { return [] }
        let token = try await provider.token(forcingRefresh: false)
        var items = [URLQueryItem(name: token.kind == .googleOAuth ? "access_token" : "auth", value: token.value)]
        if let variable = token.authVariable {
            items.append(URLQueryItem(name: "auth_variable_override", value: variable.jsonString))
        }
        return items
    }
}
