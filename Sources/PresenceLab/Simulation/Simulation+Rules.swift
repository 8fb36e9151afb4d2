import Foundation
import RTDBCore
import RTDBRules

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension Simulation {
    /// The server's rules with their evaluation counts and latest denials, read from its
    /// `/.inspect/coverage.json` (one request; ask while something shows it, every few seconds).
    public func rulesSummary() async -> RulesSummary {
        var components = URLComponents()
        (components.scheme, components.host, components.port) = ("http", target.host, target.port)
        components.path = "/.inspect/coverage.json"
        components.queryItems = [URLQueryItem(name: "ns", value: target.namespace)]
        guard let url = components.url else { return RulesSummary(problem: "no URL for \(target)") }
        var request = URLRequest(url: url)
        request.timeoutInterval = 5
        do {
            let (data, response) = try await URLSession.shared.data(for: request)
            let status = (response as? HTTPURLResponse)?.statusCode ?? 0
            guard status == 200 else {
                return RulesSummary(problem: "the server answered \(status): it may not serve /.inspect/coverage.json")
            }
            return RulesSummary(try RulesCoverageReport(json: JSONParser.parse(bytes: data)))
        } catch {
            return RulesSummary(problem: "\(error)")
        }
    }
}
