import Foundation
import RTDBCore
import WatchModel

extension DashboardRenderer {
    /// The Rules view's lines: the server's rules file, each rule's line with how often it held,
    /// failed or could not be evaluated, then the latest requests the rules refused, with who,
    /// where, what, and the rule that refused at its `FILE:LINE:COLUMN`.
    func rulesLines(_ state: DashboardState, width: Int) -> [[Segment]] {
        guard let rules = state.views.rules else { return [[Segment("asking the server…", .muted)]] }
        if let problem = rules.problem {
            return [[Segment("the server could not be asked: ", .warn), Segment(problem, .muted)]]
        }
        var lines: [[Segment]] = [
            [
                Segment(rules.file, .accent),
                Segment(
                    "  \(rules.rulesEvaluated) of \(Format.count(rules.ruleCount, "rule")) evaluated since they were read"
                        + " · \(rules.deniedTotal) refused", .muted),
            ],
            [],
            [Segment("   HELD  FAILED  ERRORS  LINE", .header)],
        ]
        let numberWidth = String(rules.lines.count).count
        let textWidth = max(10, width - 30 - numberWidth)
        for line in rules.lines {
            var gutter: [Segment]
            if !line.hasRule {
                gutter = [Segment(String(repeating: " ", count: 24))]
            } else if line.evaluations == 0 {
                gutter = [Segment(Format.fit("   never evaluated", 24), .muted)]
            } else {
                gutter = [
                    Segment(Self.padded(line.held, 7), line.held > 0 ? .good : .muted),
                    Segment(Self.padded(line.failed, 8), line.failed > 0 ? .bad : .muted),
                    Segment(Self.padded(line.errors, 8) + " ", line.errors > 0 ? .warn : .muted),
                ]
            }
            let number = String(line.number)
            let text = line.text.replacingOccurrences(of: "\t", with: "  ")
            gutter.append(
                Segment(String(repeating: " ", count: numberWidth - number.count) + number + "  ", .muted))
            gutter.append(
                Segment(Format.fit(text, textWidth, ellipsis: glyphs.ellipsis), line.hasRule ? .text : .muted))
            lines.append(gutter)
        }
        lines += [[], [Segment("LATEST DENIALS (\(rules.denials.count) of \(rules.deniedTotal))", .header)]]
        if rules.denials.isEmpty { lines.append([Segment("  none since the rules were read", .muted)]) }
        for denial in rules.denials {
            lines.append([
                Segment("  " + Format.timeOfDay(denial.at, zone: state.preferences.timeZone) + "  ", .muted),
                Segment(denial.who + "  ", .accent),
                Segment(Format.fit(denial.operation, 12) + " "),
                Segment(Format.fitMiddle(denial.path, max(12, width - 40), ellipsis: glyphs.ellipsis)),
            ])
            let blame =
                denial.rule.map { "refused by \($0.place)  \($0.text)" } ?? "no rule grants it (refused by default)"
            lines.append([Segment("    " + glyphs.fold("↳ ") + blame, .bad)])
        }
        return lines
    }

    /// `count` right-aligned in `width` columns.
    private static func padded(_ count: Int, _ width: Int) -> String {
        let text = String(count)
        return String(repeating: " ", count: max(0, width - text.count)) + text
    }
}
