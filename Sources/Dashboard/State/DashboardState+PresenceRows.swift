import LabModel
import PresenceModel
import RTDBCore

/// One row of the Presence pane: a user, or one connection of an expanded user.
struct PresenceRow: Equatable {
    /// The user's index in ``DashboardState/visibleUsers``.
    var user: Int
    /// The connection's index in that user's connections; nil for the user's own row.
    var connection: Int?
}

/// The Presence pane's rows: one per user, worked out only where a user is expanded (a project's
/// list can hold 100,000 users, and a frame shows a few dozen).
struct PresenceRows: RandomAccessCollection {
    /// Every row, when some user is expanded; nil when each row is its user.
    private let expandedRows: [PresenceRow]?
    private let userCount: Int

    init(_ users: [UserPresence], expanded: Set<String>) {
        userCount = users.count
        guard !expanded.isEmpty else {
            expandedRows = nil
            return
        }
        var rows: [PresenceRow] = []
        for (index, user) in users.enumerated() {
            rows.append(PresenceRow(user: index))
            if expanded.contains(user.id) {
                rows += user.connections.indices.map { PresenceRow(user: index, connection: $0) }
            }
        }
        expandedRows = rows
    }

    var startIndex: Int { 0 }
    var endIndex: Int { expandedRows?.count ?? userCount }
    subscript(position: Int) -> PresenceRow { expandedRows?[position] ?? PresenceRow(user: position) }

    /// The row of user `user`'s own line.
    func row(ofUser user: Int) -> Int? {
        guard let expandedRows else { return (0..<userCount).contains(user) ? user : nil }
        return expandedRows.firstIndex { $0.user == user && $0.connection == nil }
    }
}

extension DashboardState {
    /// The Presence pane's rows in order: each user, and under an expanded one its connections.
    func presenceRows(_ users: [UserPresence]) -> PresenceRows {
        PresenceRows(users, expanded: expanded)
    }

    /// How many rows of users fit inside the pane (below the header, above the filter line).
    func presenceCapacity(inside rect: Rect) -> Int {
        max(0, rect.height - 1 - (isEditingFilter ? 1 : 0) - (presenceHasSummary(inside: rect) ? 1 : 0))
    }

    /// Whether the Presence pane (inside `rect`) has room for its summary line under the list:
    /// users online over time, and the totals.
    func presenceHasSummary(inside rect: Rect) -> Bool { rect.height >= 5 }

    /// The rows on screen: a window of `capacity` rows that keeps the selected user near the middle.
    func presenceWindow(_ rows: PresenceRows, capacity: Int) -> Range<Int> {
        let selectedRow = rows.row(ofUser: selectedUser) ?? 0
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
