import PresenceModel
import RTDBCore
import WatchModel

/// One row of the Presence pane: a user, or one connection of an expanded user.
struct PresenceRow: Equatable {
    /// The user's rank in ``DashboardState/visibleUsers``.
    var user: Int
    /// The connection's index in that user's connections; nil for the user's own row.
    var connection: Int?
}

/// The Presence pane's rows: one per user, and under each expanded user one per connection,
/// worked out from the expanded users alone (a project's list can hold a million users, and a
/// frame shows a few dozen).
struct PresenceRows: RandomAccessCollection {
    /// Each expanded user shown: their rank among the shown users and how many connection rows
    /// follow theirs, by rank.
    private let openings: [(user: Int, rows: Int)]
    private let userCount: Int
    private let extraRows: Int

    init(_ index: PresenceIndex, expanded: Set<String>) {
        userCount = index.shown.count
        let shown = index.shown
        openings = expanded.compactMap { id -> (Int, Int)? in
            guard let user = index.source[id: id], let found = shown.find(user) else { return nil }
            return found.element.connections.isEmpty ? nil : (found.rank, found.element.connections.count)
        }.sorted { $0.0 < $1.0 }
        extraRows = openings.reduce(0) { $0 + $1.rows }
    }

    var startIndex: Int { 0 }
    var endIndex: Int { userCount + extraRows }

    subscript(position: Int) -> PresenceRow {
        var before = 0
        for opening in openings {
            let own = opening.user + before
            if position <= own { break }
            if position <= own + opening.rows { return PresenceRow(user: opening.user, connection: position - own - 1) }
            before += opening.rows
        }
        return PresenceRow(user: position - before)
    }

    /// The row of user `user`'s own line.
    func row(ofUser user: Int) -> Int? {
        guard (0..<userCount).contains(user) else { return nil }
        return user + openings.reduce(0) { $0 + ($1.user < user ? $1.rows : 0) }
    }
}

extension DashboardState {
    /// The Presence pane's rows in order: each user, and under an expanded one its connections.
    func presenceRows(_ index: PresenceIndex) -> PresenceRows {
        PresenceRows(index, expanded: presence.expanded)
    }

    /// How many rows of users fit inside the pane (below the header, above the filter line).
    func presenceCapacity(inside rect: Rect) -> Int {
        max(0, rect.height - 1 - (presence.isEditingFilter ? 1 : 0) - (presenceHasSummary(inside: rect) ? 1 : 0))
    }

    /// Whether the Presence pane (inside `rect`) has room for its summary line under the list:
    /// users online over time, and the totals.
    func presenceHasSummary(inside rect: Rect) -> Bool { rect.height >= 5 }

    /// The rows on screen: a window of `capacity` rows that keeps the selected user near the middle.
    func presenceWindow(_ rows: PresenceRows, capacity: Int) -> Range<Int> {
        let selectedRow = rows.row(ofUser: presence.selectedUser) ?? 0
        let first = max(0, min(selectedRow - capacity / 2, rows.count - capacity))
        return first..<min(rows.count, first + capacity)
    }

    /// The user on screen row `y` of the Presence pane, if a user's row (or one of its
    /// connections) is there.
    func presenceUser(atRow y: Int) -> Int? {
        guard let rect = layout.rect(for: .presence)?.inset(by: 1) else { return nil }
        let rows = presenceRows(currentPresence)
        let window = presenceWindow(rows, capacity: presenceCapacity(inside: rect))
        let index = window.lowerBound + (y - rect.y - 1)
        guard y > rect.y, window.contains(index) else { return nil }
        return rows[index].user
    }
}
