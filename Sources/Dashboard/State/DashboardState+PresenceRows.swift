import Presence
import PresenceLab
import RTDBCore

/// One row of the Presence pane: a user, or one connection of an expanded user.
struct PresenceRow: Equatable {
    /// The user's index in ``DashboardState/visibleUsers``.
    var user: Int
    /// The connection's index in that user's connections; nil for the user's own row.
    var connection: Int?
}

extension DashboardState {
    /// The Presence pane's rows in order: each user, and under an expanded one its connections.
    func presenceRows(_ users: [UserPresence]) -> [PresenceRow] {
        var rows: [PresenceRow] = []
        for (index, user) in users.enumerated() {
            rows.append(PresenceRow(user: index))
            if expanded.contains(user.id) {
                rows += user.connections.indices.map { PresenceRow(user: index, connection: $0) }
            }
        }
        return rows
    }

    /// How many rows of users fit inside the pane (below the header, above the filter line).
    func presenceCapacity(inside rect: Rect) -> Int {
        max(0, rect.height - 1 - (isEditingFilter ? 1 : 0))
    }

    /// The rows on screen: a window of `capacity` rows that keeps the selected user near the middle.
    func presenceWindow(_ rows: [PresenceRow], capacity: Int) -> Range<Int> {
        let selectedRow = rows.firstIndex { $0.user == selectedUser && $0.connection == nil } ?? 0
        let first = max(0, min(selectedRow - capacity / 2, rows.count - capacity))
        return first..<min(rows.count, first + capacity)
    }

    /// The user on screen row `y` of the Presence pane, if a user's row (or one of its
    /// connections) is there.
    func presenceUser(atRow y: Int) -> Int? {
        guard let rect = layout.rect(for: .presence)?.inset(by: 1) else { return nil }
        let rows = presenceRows(visibleUsers)
        let window = presenceWindow(rows, capacity: presenceCapacity(inside: rect))
        let index = window.lowerBound + (y - rect.y - 1)
        guard y > rect.y, window.contains(index) else { return nil }
        return rows[index].user
    }
}
