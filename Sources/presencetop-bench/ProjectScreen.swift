import Dashboard
import Foundation
import WatchModel

/// The dashboard's state and renderer as the running dashboard keeps them, timed: a snapshot
/// folded in and a 160×48 frame drawn.
struct ProjectScreen {
    private var state: DashboardState
    private let renderer = DashboardRenderer()

    /// A screen that starts from `state` (by default a 160×48 dashboard that has seen nothing).
    init(state: DashboardState = DashboardState(width: 160, height: 48)) {
        self.state = state
    }

    /// Folds `snapshot` in and draws a frame; the milliseconds it took.
    @discardableResult
    mutating func fold(_ snapshot: WatchSnapshot) -> Double {
        let begin = DispatchTime.now().uptimeNanoseconds
        _ = DashboardReducer.reduce(&state, .snapshot(snapshot))
        _ = renderer.render(state)
        return Double(DispatchTime.now().uptimeNanoseconds - begin) / 1e6
    }

    /// Presses `key` and draws a frame; the milliseconds it took.
    mutating func press(_ key: KeyEvent) -> Double {
        let begin = DispatchTime.now().uptimeNanoseconds
        _ = DashboardReducer.reduce(&state, .key(key))
        _ = renderer.render(state)
        return Double(DispatchTime.now().uptimeNanoseconds - begin) / 1e6
    }

    /// Sorting, filtering and scrolling the whole list: each key's time to the screen.
    mutating func measureKeys(_ report: BenchReport) {
        var times: [(String, Double)] = []
        for (name, key) in [("sort_next", KeyEvent.character(">")), ("sort_next_again", .character(">"))] {
            times.append((name, press(key)))
        }
        times.append(("sort_back", press(.character("<"))))
        times.append(("sort_back_again", press(.character("<"))))
        times.append(("page_down", press(.pageDown)))
        times.append(("bottom", press(.end)))
        times.append(("top", press(.home)))
        _ = press(.character("/"))
        for (index, character) in "user00012".enumerated() {
            times.append(("filter_key_\(index + 1)", press(.character(character))))
        }
        times.append(("filter_backspace", press(.backspace)))
        times.append(("filter_cleared", press(.escape)))
        let worst = times.map(\.1).max() ?? 0
        for (name, time) in times { report.record("key_\(name)_ms", time) }
        report.record("key_worst_ms", worst)
        report.say(
            "keys to the screen (ms): "
                + times.map { String(format: "%@ %.1f", $0.0, $0.1) }.joined(separator: ", ")
                + String(format: "; worst %.1f ms (target: ≤ 50 ms)", worst))
    }
}
