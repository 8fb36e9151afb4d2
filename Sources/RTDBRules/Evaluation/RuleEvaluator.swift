import Foundation
import RTDBCore

/// Why a rule could not be evaluated (the rule then counts as false, as Firebase treats it).
struct RuleEvaluationError: Error {
    var message: String
}

/// What rules are evaluated against: the credential, the time and the data, before and after
/// the write; each rule's ``CompiledExpression`` runs with it.
///
/// A class: every evaluation's scope refers to it, and a reference is one retain where the
/// values would be one per tree and value they hold.
final class RuleEvaluator: Sendable {
    /// The `auth` variable: null for a signed-out client.
    let auth: RuleValue
    /// `now`: the server's time, in milliseconds.
    let now: RuleValue
    /// `root` (the data before the write).
    let root: Node
    /// The data as it would be after the write (nil for reads).
    let newTree: RuleTree?
    /// Where each evaluation is noted for the coverage report; nil notes nothing.
    let coverage: RulesCoverage?
    /// The coverage's counters, counted into without a retain per evaluation (`coverage` keeps
    /// them alive as long as this evaluator); nil when nothing is counted.
    let tally: CoverageCounters.Tally?

    /// The values a request's rules see.
    init(auth: JSONValue, now: UnixTime, root: Node, newTree: RuleTree?, coverage: RulesCoverage? = nil) {
        self.auth = auth == .null ? .null : .object(auth)
        self.now = .number(Double(now.millisecondsSince1970))
        self.root = root
        self.newTree = newTree
        self.coverage = coverage
        self.tally = coverage?.counters.tally
    }

    /// Whether the rule holds at `location` with the wildcards' values `variables`; an error counts
    /// as false and is returned for the log.
    ///
    /// `newData` is the node at `location` as it would be after the write, when the caller has it at
    /// hand (the checks of `.validate` follow the new data down): no walk from the root then.
    func holds(_ rule: RuleNode.Rule, at location: RuleLocation, variables: RuleVariables, newData: Node? = nil)
        -> Result<Bool, RuleEvaluationError>
    {
        do throws(RuleEvaluationError) {
            let scope = RuleScope(evaluator: self, location: location, variables: variables, newData: newData)
            let value = try rule.compiled.run(scope)
            guard case .bool(let result) = value else {
                throw RuleEvaluationError(message: "the rule gave \(value.kind), not a boolean")
            }
            return .success(result)
        } catch {
            return .failure(error)
        }
    }

    /// `target.name`: a string's length, an object's member, an array's element.
    static func member(_ target: RuleValue, _ name: String, _ key: CodeUnitString) throws(RuleEvaluationError)
        -> RuleValue
    {
        switch target {
        case .string(let text) where name == "length": return .number(Double(text.utf16.count))
        case .object(let object):
            if case .object(let members) = object {
                return members[key].map(RuleValue.init(json:)) ?? .null
            }
            if case .array(let elements) = object, let position = Int(name), elements.indices.contains(position) {
                return RuleValue(json: elements[position])
            }
            return .null
        default: throw RuleEvaluationError(message: "\(target.kind) has no property '\(name)'")
        }
    }
}
