import Dashboard

/// The open view's data, asked of the source while the view is open.
///
/// At once, then now and then (the Cache view every tick, the views that ask the server every
/// two seconds). Every answer arrives as an action in the inbox, so the loop never waits.
struct ViewReads {
    /// The view last asked for, and when.
    private var asked: (overlay: DashboardState.Overlay?, at: Duration?) = (nil, nil)

    /// Asks for `overlay`'s data if it is due at `now`.
    mutating func ask(
        for overlay: DashboardState.Overlay?, at now: Duration, source: any DashboardSource, inbox: ActionInbox,
        wake: WakePipe
    ) {
        if overlay != asked.overlay { asked = (overlay, nil) }
        guard let overlay else { return }
        let interval = overlay == .cache ? DashboardLoop.tick : DashboardLoop.viewInterval
        if let last = asked.at, now - last < interval { return }
        asked.at = now
        Task {
            switch overlay {
            case .cache: inbox.append(.cache(await source.cacheSummary()))
            case .onDisconnect: inbox.append(.onDisconnect(await source.onDisconnectSummary()))
            case .rules: inbox.append(.rules(await source.rulesSummary()))
            }
            wake.signal()
        }
    }
}
