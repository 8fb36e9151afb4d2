import RTDBCore

/// A coverage report that could not be read back, and the field at fault.
public struct CoverageReportError: Error, Sendable, CustomStringConvertible {
    /// What is missing or wrong.
    public var description: String
}

extension RulesCoverageReport {
    /// The report as `/.inspect/coverage.json` serves it (docs/security-rules.md): the file, each
    /// rule with its expression tree, and the denials.
    public var json: JSONValue {
        [
            "rules": ["files": [["name": .string(file), "content": .string(text)]]],
            "report": .array(rules.map(\.json)),
            "denials": ["total": .int(Int64(deniedTotal)), "latest": .array(denials.map(\.json))],
        ]
    }

    /// Reads a report back from its JSON.
    public init(json: JSONValue) throws(CoverageReportError) {
        let files = try json.field("rules").field("files").elements()
        guard let first = files.first else { throw CoverageReportError(description: "rules.files is empty") }
        let denials = try json.field("denials")
        self.init(
            file: try first.field("name").string(), text: try first.field("content").string(),
            rules: try json.field("report").elements().map { (rule) throws(CoverageReportError) in try Rule(json: rule)
            },
            denials: try denials.field("latest").elements().map { (denial) throws(CoverageReportError) in
                try RuleDenial(json: denial)
            }, deniedTotal: Int(try denials.field("total").int()))
    }
}

extension RulesCoverageReport.Rule {
    var json: JSONValue { ["rule": reference.json, "expression": expression.json] }

    init(json: JSONValue) throws(CoverageReportError) {
        self.init(
            reference: try RuleReference(json: json.field("rule")),
            expression: try RulesCoverageReport.Expression(json: json.field("expression")))
    }
}

extension RulesCoverageReport.Expression {
    var json: JSONValue {
        [
            "text": .string(text), "sourcePosition": location.json, "evaluations": .int(Int64(evaluations)),
            "values": .array(values.map { $0.value.json(count: $0.count) }), "otherValues": .int(Int64(otherValues)),
            "children": .array(children.map(\.json)),
        ]
    }

    init(json: JSONValue) throws(CoverageReportError) {
        self.init(
            text: try json.field("text").string(), location: try SourceLocation(json: json.field("sourcePosition")),
            evaluations: Int(try json.field("evaluations").int()),
            values: try json.field("values").elements().map { (value) throws(CoverageReportError) in
                RulesCoverageReport.ValueCount(
                    value: try CoverageValue(json: value), count: Int(try value.field("count").int()))
            }, otherValues: Int(try json.field("otherValues").int()),
            children: try json.field("children").elements().map { (child) throws(CoverageReportError) in
                try Self(json: child)
            })
    }
}

extension CoverageValue {
    func json(count: Int) -> JSONValue {
        let count = JSONValue.int(Int64(count))
        switch self {
        case .value(let value): return ["kind": "value", "value": value, "count": count]
        case .string: return ["kind": "string", "count": count]
        case .number: return ["kind": "number", "count": count]
        case .snapshot: return ["kind": "snapshot", "count": count]
        case .object: return ["kind": "object", "count": count]
        case .other: return ["kind": "other", "count": count]
        case .error(let message): return ["kind": "error", "message": .string(message), "count": count]
        }
    }

    init(json: JSONValue) throws(CoverageReportError) {
        switch try json.field("kind").string() {
        case "value": self = .value(try json.field("value"))
        case "string": self = .string
        case "number": self = .number
        case "snapshot": self = .snapshot
        case "object": self = .object
        case "other": self = .other
        case "error": self = .error(try json.field("message").string())
        case let kind: throw CoverageReportError(description: "unknown value kind '\(kind)'")
        }
    }
}

extension RuleReference {
    var json: JSONValue {
        [
            "kind": .string(kind.rawValue), "path": .string(path), "text": .string(text),
            "sourcePosition": [
                "fileName": .string(file), "line": .int(Int64(location.line)), "column": .int(Int64(location.column)),
            ],
        ]
    }

    init(json: JSONValue) throws(CoverageReportError) {
        let kind = try json.field("kind").string()
        guard let ruleKind = RuleKind(rawValue: kind) else {
            throw CoverageReportError(description: "unknown rule kind '\(kind)'")
        }
        let position = try json.field("sourcePosition")
        self.init(
            kind: ruleKind, path: try json.field("path").string(), text: try json.field("text").string(),
            file: try position.field("fileName").string(), location: try SourceLocation(json: position))
    }
}

extension RuleDenial {
    var json: JSONValue {
        var object: JSONValue = [
            "at": .int(at.millisecondsSince1970), "who": .string(who), "path": .string(path.description),
            "operation": .string(operation.rawValue), "message": .string(refusal.message),
        ]
        if let rule = refusal.rule, case .object(var members) = object {
            members["rule"] = rule.json
            object = .object(members)
        }
        return object
    }

    init(json: JSONValue) throws(CoverageReportError) {
        let name = try json.field("operation").string()
        guard let operation = Operation(rawValue: name) else {
            throw CoverageReportError(description: "unknown operation '\(name)'")
        }
        let rule: RuleReference? = try json["rule"].map { (rule) throws(CoverageReportError) in
            try RuleReference(json: rule)
        }
        self.init(
            at: UnixTime(millisecondsSince1970: try json.field("at").int()), who: try json.field("who").string(),
            path: Path(try json.field("path").string()), operation: operation,
            refusal: RuleRefusal(message: try json.field("message").string(), rule: rule))
    }
}

extension SourceLocation {
    var json: JSONValue { ["line": .int(Int64(line)), "column": .int(Int64(column))] }

    init(json: JSONValue) throws(CoverageReportError) {
        self.init(line: Int(try json.field("line").int()), column: Int(try json.field("column").int()))
    }
}

extension JSONValue {
    fileprivate func field(_ name: String) throws(CoverageReportError) -> JSONValue {
        guard let value = self[name] else { throw CoverageReportError(description: "missing field '\(name)'") }
        return value
    }

    fileprivate func string() throws(CoverageReportError) -> String {
        guard let string = stringValue else { throw CoverageReportError(description: "\(jsonString) is not a string") }
        return string
    }

    fileprivate func int() throws(CoverageReportError) -> Int64 {
        guard let number = intValue else { throw CoverageReportError(description: "\(jsonString) is not an integer") }
        return number
    }

    fileprivate func elements() throws(CoverageReportError) -> [JSONValue] {
        guard let array = arrayValue else { throw CoverageReportError(description: "\(jsonString) is not an array") }
        return array
    }
}
