import Foundation
import RTDBCore
import WatchModel

extension DashboardRenderer {
    /// The onDisconnect view's lines.
    ///
    /// Who the operations run as and for how long, then each registered operation (path, kind,
    /// when registered) with what the server would do with it now. Users lose presence silently when a credential ends or the rules change after
    /// registration; here it shows before the connection ends.
    func onDisconnectLines(_ state: DashboardState, width: Int) -> [[Segment]] {
        guard let summary = state.views.onDisconnect else { return [[Segment("asking the server…", .muted)]] }
        if let problem = summary.problem {
            return [[Segment("the server could not be asked: ", .warn), Segment(problem, .muted)]]
        }
        var who: [Segment] = [Segment("runs as ", .muted)]
        if let uid = summary.runsAs {
            who.append(Segment(uid, .accent))
        } else {
            who.append(Segment("nobody (signed out): rules that need a user refuse it", .warn))
        }
        if let expiresAt = summary.credentialExpiresAt {
            let left = expiresAt - state.now
            who.append(
                Segment(
                    "  credential until \(Format.timeOfDay(expiresAt, zone: state.preferences.timeZone)) (\(Format.shortDuration(left)) left)",
                    left < Self.credentialWarning ? .warn : .muted))
        }
        var lines: [[Segment]] = [who, []]
        let pathWidth = max(16, min(48, width / 2))
        lines.append([
            Segment(
                "  " + Format.fit("PATH", pathWidth) + " " + Format.fit("KIND", 7) + " REGISTERED  WOULD RUN", .header)
        ])
        if summary.operations.isEmpty { lines.append([Segment("  none registered on this connection", .muted)]) }
        for operation in summary.operations {
            let line = [
                Segment("  " + Format.fitMiddle(operation.path, pathWidth, ellipsis: glyphs.ellipsis) + " "),
                Segment(Format.fit(operation.kind, 7) + " "),
                Segment(
                    Format.fit(Format.shortDuration(state.deviceNow - operation.registeredAt) + " ago", 11) + " ",
                    .muted),
            ]
            switch operation.verdict {
            case .runs:
                lines.append(line + [Segment("yes", .good)])
            case .refused(let reason):
                // The reason on a line of its own, where it has the width to be read whole.
                lines.append(line + [Segment("no", .bad)])
                lines.append([Segment("    " + glyphs.fold("↳ ") + reason, .bad)])
            case .notHeld:
                lines.append(line + [Segment("not held by the server", .warn)])
            }
        }
        return lines
    }
}
