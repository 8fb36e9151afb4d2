import Foundation
import RTDBCore
import RTDBRules

/// The coverage report as a page to read: the rules file with every expression marked by how it
/// was evaluated (hover for the counts), a table of the rules, and the latest denials.
struct CoveragePage {
    let report: RulesCoverageReport
    let namespace: String

    var html: String {
        let expressions = report.rules.flatMap { Self.flatten($0.expression) }
        let evaluated = expressions.filter { $0.evaluations > 0 }.count
        return """
            <!doctype html>
            <html><head><meta charset="utf-8"><title>Rules coverage: \(escape(namespace))</title>
            <style>
            body { font-family: sans-serif; margin: 2em; }
            pre { background: #f6f6f6; padding: 1em; line-height: 1.4; }
            .n { color: #999; user-select: none; }
            .hit { background: #c8f0c8; } .error { background: #f6c8c8; } .never { background: #e4e4e4; }
            table { border-collapse: collapse; } td, th { border: 1px solid #ccc; padding: 0.2em 0.5em; text-align: left; }
            code { white-space: pre-wrap; }
            </style></head><body>
            <h1>Rules coverage: \(escape(namespace))</h1>
            <p>\(escape(report.file)): \(evaluated) of \(expressions.count) expressions evaluated since the rules were read.
            Marked: <span class="hit">evaluated</span> <span class="error">only errors</span> <span class="never">never evaluated</span>;
            hover a mark for its counts and values.</p>
            <pre>\(source(expressions))</pre>
            <h2>Rules</h2>
            <table><tr><th>place</th><th>rule</th><th>path</th><th>expression</th><th>evaluations</th><th>values</th></tr>
            \(report.rules.map(row).joined(separator: "\n"))
            </table>
            <h2>Latest denials (\(report.deniedTotal) in all)</h2>
            <table><tr><th>time</th><th>who</th><th>operation</th><th>path</th><th>refused by</th><th>why</th></tr>
            \(report.denials.reversed().map(denialRow).joined(separator: "\n"))
            </table>
            </body></html>
            """
    }

    /// Every expression of a tree, outermost first.
    private static func flatten(_ expression: RulesCoverageReport.Expression) -> [RulesCoverageReport.Expression] {
        [expression] + expression.children.flatMap(flatten)
    }

    /// The file, each expression's first character marked.
    private func source(_ expressions: [RulesCoverageReport.Expression]) -> String {
        var marks: [SourceLocation: RulesCoverageReport.Expression] = [:]
        for expression in expressions where marks[expression.location] == nil {
            marks[expression.location] = expression
        }
        let lines = report.text.split(separator: "\n", omittingEmptySubsequences: false)
        let width = String(lines.count).count
        return lines.enumerated().map { index, line in
            let number = String(index + 1)
            var out = "<span class=\"n\">\(String(repeating: " ", count: width - number.count))\(number)  </span>"
            for (offset, character) in line.enumerated() {
                let text = escape(String(character))
                guard let mark = marks[SourceLocation(line: index + 1, column: offset + 1)] else {
                    out += text
                    continue
                }
                out += "<span class=\"\(Self.style(mark))\" title=\"\(escape(Self.summary(mark)))\">\(text)</span>"
            }
            return out
        }.joined(separator: "\n")
    }

    private static func style(_ expression: RulesCoverageReport.Expression) -> String {
        if expression.evaluations == 0 { return "never" }
        let errors = expression.values.filter { if case .error = $0.value { true } else { false } }
        return errors.reduce(0) { $0 + $1.count } == expression.evaluations ? "error" : "hit"
    }

    /// `auth.uid == $uid: 12 evaluations; true ×9, false ×3`.
    private static func summary(_ expression: RulesCoverageReport.Expression) -> String {
        let noun = expression.evaluations == 1 ? "evaluation" : "evaluations"
        return "\(expression.text): \(expression.evaluations) \(noun)" + (expression.values.isEmpty ? "" : "; ")
            + values(expression)
    }

    private static func values(_ expression: RulesCoverageReport.Expression) -> String {
        var parts = expression.values.map { "\($0.value) ×\($0.count)" }
        if expression.otherValues > 0 { parts.append("other values ×\(expression.otherValues)") }
        return parts.joined(separator: ", ")
    }

    private func row(_ rule: RulesCoverageReport.Rule) -> String {
        let cells = [
            rule.reference.place, rule.reference.kind.rawValue, rule.reference.path, rule.reference.text,
            String(rule.expression.evaluations), Self.values(rule.expression),
        ]
        return "<tr>" + cells.map { "<td><code>\(escape($0))</code></td>" }.joined() + "</tr>"
    }

    private func denialRow(_ denial: RuleDenial) -> String {
        let time = ISO8601DateFormatter().string(
            from: Date(timeIntervalSince1970: Double(denial.at.millisecondsSince1970) / 1000))
        let rule = denial.refusal.rule.map { "\($0.place) \($0.kind.rawValue) \($0.text)" } ?? "no rule grants it"
        let cells = [
            time, denial.who, denial.operation.rawValue, denial.path.description, rule, denial.refusal.message,
        ]
        return "<tr>" + cells.map { "<td><code>\(escape($0))</code></td>" }.joined() + "</tr>"
    }

    /// Text made safe for HTML (rules, paths and uids come from clients and files).
    private func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
