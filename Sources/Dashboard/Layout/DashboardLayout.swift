/// Where each pane goes for a terminal size: a pure function of the size.
///
/// Wide terminals (at least 120 × 32) get the two-column layout with the events pane; smaller
/// ones stack the panes and fold the events away; below the minimum there is nothing but a
/// "terminal too small" message.
public struct DashboardLayout: Sendable, Equatable {
    /// The smallest terminal the dashboard draws in.
    public static let minimumWidth = 50
    /// The smallest terminal the dashboard draws in.
    public static let minimumHeight = 16

    /// Columns.
    public let width: Int
    /// Rows.
    public let height: Int
    /// Each pane's rectangle (a pane not shown has none).
    public let rects: [Pane: Rect]
    /// The footer's row.
    public let footer: Rect
    /// The notice's row, just above the footer.
    public let noticeRow: Int

    /// Lays out a terminal of `width` × `height`.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
        footer = Rect(x: 0, y: height - 1, width: width, height: 1)
        noticeRow = height - 2
        guard width >= Self.minimumWidth, height >= Self.minimumHeight else {
            rects = [:]
            return
        }
        let body = height - 1
        var rects: [Pane: Rect] = [:]
        if width >= 120 && height >= 32 {
            let top = 7
            let events = height >= 40 ? 10 : 7
            let middle = body - top - events
            let left = width * 2 / 5
            rects[.connection] = Rect(x: 0, y: 0, width: left, height: top)
            rects[.clock] = Rect(x: left, y: 0, width: width - left, height: top)
            let presence = width * 11 / 20
            rects[.presence] = Rect(x: 0, y: top, width: presence, height: middle)
            rects[.pending] = Rect(x: presence, y: top, width: width - presence, height: middle)
            rects[.events] = Rect(x: 0, y: top + middle, width: width, height: events)
        } else {
            let top = 5
            let pending = max(5, (body - top) * 2 / 5)
            let left = width / 2
            rects[.connection] = Rect(x: 0, y: 0, width: left, height: top)
            rects[.clock] = Rect(x: left, y: 0, width: width - left, height: top)
            rects[.presence] = Rect(x: 0, y: top, width: width, height: body - top - pending)
            rects[.pending] = Rect(x: 0, y: body - pending, width: width, height: pending)
        }
        self.rects = rects
    }

    /// Whether the terminal is too small to draw the panes.
    public var isTooSmall: Bool { rects.isEmpty }

    /// The panes shown, in focus order.
    public var panes: [Pane] { Pane.allCases.filter { rects[$0] != nil } }

    /// A pane's rectangle, if it is shown.
    public func rect(for pane: Pane) -> Rect? { rects[pane] }

    /// The pane under a cell, if any.
    public func pane(at x: Int, _ y: Int) -> Pane? {
        panes.first { rects[$0]?.contains(column: x, row: y) ?? false }
    }
}
