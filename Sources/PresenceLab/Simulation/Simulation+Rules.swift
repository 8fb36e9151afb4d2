import Foundation
import RTDBClient
import RTDBCore
import RTDBRules

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension Simulation {
    /// Finds, in the server's latest denials, why the rules refused each of `letters` (the
    /// latest denial at its path), for the dead letters' pane: the client itself hears only
    /// Firebase's `Permission denied`.
    ///
    /// - Returns: The explanations found, by dead letter id (also kept for the snapshots).
    func explain(_ letters: [DeadLetter]) async -> [Int: String] {
        let summary = await rulesSummary()
        guard summary.problem == nil else { return [:] }
        var found: [Int: String] = [:]
        for letter in letters {
            let path = Path(letter.write.path).description
            guard let denial = summary.denials.first(where: { CodeUnitString.equal($0.path, path) }) else { continue }
            found[letter.id] = denial.message + (denial.rule.map { " (\($0.text) at \($0.place))" } ?? "")
        }
        ledger.explained(found)
        return found
    }

    /// The server's rules with their evaluation counts and latest denials, read from its
    /// `/.inspect/coverage.json` (one request; ask while something shows it, every few seconds),
    /// or a simulated server's engine.
    public func rulesSummary() async -> RulesSummary {
        if case .simulated(let stage) = options.server {
            guard let engine = stage.server.engine else { return RulesSummary(problem: "the server is down") }
            return RulesSummary(await engine.securityRules.coverageReport())
        }
        var components = URLComponents()
        (components.scheme, components.host, components.port) = (target.scheme, target.host, target.port)
        components.path = "/.inspect/coverage.json"
        components.queryItems = [URLQueryItem(name: "ns", value: target.namespace)]
        do {
            components.queryItems? += try await Self.credentialParameters(options.credentials)
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
