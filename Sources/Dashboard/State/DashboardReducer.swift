import Foundation
import PresenceModel
import RTDBCore
import WatchModel

/// The dashboard's one state machine: an action changes the state and may ask for effects.
public enum DashboardReducer {
    /// Applies `action` to `state` and returns the effects the loop must perform.
    public static func reduce(_ state: inout DashboardState, _ action: DashboardAction) -> [DashboardEffect] {
        switch action {
        case .key(let key):
            return handle(key, &state)
        case .resize(let width, let height):
            state.width = max(0, width)
            state.height = max(0, height)
            clampSelection(&state)
        case .cache(let summary):
            state.views.cache = summary
            state.views.cacheRead = true
        case .onDisconnect(let summary):
            state.views.onDisconnect = summary
        case .rules(let summary):
            state.views.rules = summary
        case .snapshot(let snapshot):
            state.snapshot = snapshot
            indexUsers(&state)
            // A notice made before the first snapshot had no time yet: its time starts now.
            if state.now == .epoch, state.timeline.notice?.at == .epoch { state.timeline.notice?.at = snapshot.takenAt }
            state.now = snapshot.takenAt
            sample(&state)
            if state.timeline.notice != nil, state.timeline.noticeSince == nil {
                state.timeline.noticeSince = snapshot.takenAt
            } else if let since = state.timeline.noticeSince, state.now - since > DashboardState.noticeLifetime {
                state.timeline.notice = nil
            }
            clampSelection(&state)
        case .event(let event):
            record(event, &state)
        case .replayed(let status, let events):
            state.replay = status
            state.timeline.events = []
            for event in events { record(event, &state) }
        case .themes(let names, let current):
            state.themes.names = names
            state.themes.current = current
        case .notice(let text, let role):
            let line = EventLine(at: state.now, text: text, role: role)
            state.timeline.notice = line
            append(line, &state)
        }
        return []
    }

    // MARK: - Keys

    private static func handle(_ key: KeyEvent, _ state: inout DashboardState) -> [DashboardEffect] {
        if state.presence.isEditingFilter {
            switch key {
            case .character(let character):
                state.presence.filter.append(character)
                state.presence.selectedUser = 0
            case .backspace: if !state.presence.filter.isEmpty { state.presence.filter.removeLast() }
            case .enter: state.presence.isEditingFilter = false
            case .escape:
                state.presence.filter = ""
                state.presence.isEditingFilter = false
            case .interrupt:
                state.exit.isQuitting = true
                state.exit.isInterrupted = true
                return [.quit]
            default: break
            }
            clampSelection(&state)
            return []
        }
        if case .click(let x, let y) = key {
            // A click focuses the pane under it; on a user's row it selects that user too.
            if let pane = state.layout.pane(at: x, y) { state.panes.focused = pane }
            if state.panes.focused == .presence, let user = state.presenceUser(atRow: y) {
                state.presence.selectedUser = user
            }
            return []
        }
        guard let command = KeyMap.command(for: key, in: state.preferences.bindings, replaying: state.replay != nil)
        else {
            return []
        }
        if key == .interrupt { state.exit.isInterrupted = true }
        if state.help.isShown { return helpKey(command, &state) }
        if let overlay = state.views.shown { return overlayKey(command, overlay, &state) }
        return perform(command, &state)
    }

    /// With the help open, its keys scroll it, close it or quit; nothing acts behind it.
    private static func helpKey(_ command: Command, _ state: inout DashboardState) -> [DashboardEffect] {
        let page = max(1, state.helpCapacity - 1)
        switch command {
        case .moveUp: state.help.scroll -= 1
        case .moveDown: state.help.scroll += 1
        case .pageUp: state.help.scroll -= page
        case .pageDown: state.help.scroll += page
        case .top: state.help.scroll = 0
        case .bottom: state.help.scroll = state.maxHelpScroll
        case .toggleHelp, .cancel: state.help.isShown = false
        case .quit: return perform(.quit, &state)
        default: break
        }
        state.help.scroll = min(max(0, state.help.scroll), state.maxHelpScroll)
        return []
    }

    /// With a view open over the panes, its keys scroll it, close it, open another or quit;
    /// nothing acts behind it.
    private static func overlayKey(
        _ command: Command, _ overlay: DashboardState.Overlay, _ state: inout DashboardState
    ) -> [DashboardEffect] {
        switch command {
        case .moveUp: state.views.scroll -= 1
        case .moveDown: state.views.scroll += 1
        case .pageUp: state.views.scroll -= 10
        case .pageDown: state.views.scroll += 10
        case .top: state.views.scroll = 0
        case .cancel: state.views.shown = nil
        case .toggleCache, .toggleOnDisconnect, .toggleRules:
            let asked: DashboardState.Overlay =
                switch command {
                case .toggleCache: .cache
                case .toggleOnDisconnect: .onDisconnect
                default: .rules
                }
            if asked == overlay { state.views.shown = nil } else { return perform(command, &state) }
        case .toggleHelp:
            state.views.shown = nil
            return perform(.toggleHelp, &state)
        case .quit: return perform(.quit, &state)
        default: break
        }
        state.views.scroll = max(0, state.views.scroll)
        return []
    }

    private static func perform(_ command: Command, _ state: inout DashboardState) -> [DashboardEffect] {
        if case .effect(let effect) = command, let snapshot = state.snapshot,
            let refusal = effect.refusal(under: snapshot.access, server: snapshot.server)
        {
            state.timeline.notice = EventLine(at: state.now, text: refusal, role: .warn)
            return []
        }
        switch command {
        case .effect(.writeForbidden) where !(state.snapshot?.enforcesPresenceRules ?? false):
            // On a server whose rules are not known, the write may go through: say so, and ask.
            if let asked = state.pending.confirmationAskedAt,
                state.now - asked <= DashboardState.confirmationWindow
            {
                state.pending.confirmationAskedAt = nil
                return [.writeForbidden]
            }
            state.pending.confirmationAskedAt = state.now
            let server = state.snapshot?.server ?? "this server"
            let line = EventLine(
                at: state.now,
                text: "r writes another user's presence on \(server); its rules decide, and with none it goes through. "
                    + "Press r again to do it.", role: .warn)
            state.timeline.notice = line
            return []
        case .effect(let effect):
            return [effect]
        case .quit:
            state.exit.isQuitting = true
            return [.quit]
        case .sortNext, .sortPrevious:
            state.presence.sort = state.presence.sort.moved(by: command == .sortNext ? 1 : -1)
            state.timeline.notice = EventLine(
                at: state.now, text: "users sorted by \(state.presence.sort.rawValue)", role: .muted)
            clampSelection(&state)
        case .retryDeadLetter, .discardDeadLetter:
            guard let id = state.currentDeadLetter else {
                state.timeline.notice = EventLine(at: state.now, text: "no refused write to act on", role: .muted)
                return []
            }
            return [command == .retryDeadLetter ? .retryDeadLetter(id) : .discardDeadLetter(id)]
        case .toggleHelp:
            state.help.isShown.toggle()
            state.help.scroll = 0
        case .toggleCache:
            state.views.shown = .cache
            state.views.scroll = 0
            state.views.cacheRead = false
        case .toggleOnDisconnect:
            state.views.shown = .onDisconnect
            state.views.scroll = 0
            state.views.onDisconnect = nil
        case .toggleRules:
            state.views.shown = .rules
            state.views.scroll = 0
            state.views.rules = nil
        case .cancel:
            if state.help.isShown { state.help.isShown = false } else { state.presence.filter = "" }
            clampSelection(&state)
        case .startFilter:
            state.help.isShown = false
            state.panes.focused = .presence
            state.presence.isEditingFilter = true
        case .nextTheme:
            let names = state.themes.names
            guard !names.isEmpty else { return [] }
            let next = names[((names.firstIndex(of: state.themes.current) ?? -1) + 1) % names.count]
            // Taken at once: a second T in the same batch of keys moves on from this one.
            state.themes.current = next
            return [.useTheme(next)]
        case .focusNext, .focusPrevious:
            let panes = state.layout.panes
            guard !panes.isEmpty else { return [] }
            let index = panes.firstIndex(of: state.panes.focused) ?? 0
            let step = command == .focusNext ? 1 : panes.count - 1
            state.panes.focused = panes[(index + step) % panes.count]
        case .moveUp: move(by: -1, &state)
        case .moveDown: move(by: 1, &state)
        case .pageUp: move(by: -max(1, page(state) - 1), &state)
        case .pageDown: move(by: max(1, page(state) - 1), &state)
        case .top: move(by: -Int.max / 2, &state)
        case .bottom: move(by: Int.max / 2, &state)
        case .toggleExpanded:
            let users = state.visibleUsers
            guard state.panes.focused == .presence, users.indices.contains(state.presence.selectedUser) else {
                return []
            }
            let id = users[state.presence.selectedUser].id
            if state.presence.expanded.contains(id) {
                state.presence.expanded.remove(id)
            } else {
                state.presence.expanded.insert(id)
            }
        }
        return []
    }

    private static func page(_ state: DashboardState) -> Int {
        state.layout.rect(for: state.panes.focused).map { max(1, $0.height - 3) } ?? 1
    }

    /// Brings the presence index to the snapshot's users, the order chosen with < and > and the
    /// filter: only what changed since the last time.
    private static func indexUsers(_ state: inout DashboardState) {
        state.presence.index.update(
            to: state.snapshot?.users ?? [], sort: state.presence.sort, filter: state.presence.filter)
    }

    private static func move(by delta: Int, _ state: inout DashboardState) {
        let letters = state.snapshot?.thisDevice?.deadLetters ?? []
        if state.panes.focused == .pending, !letters.isEmpty {
            // In the Pending pane the keys pick the refused write R and X act on.
            let index = letters.firstIndex { $0.id == state.currentDeadLetter } ?? letters.count - 1
            let moved = min(max(0, index.addingReportingOverflow(delta).partialValue), letters.count - 1)
            state.pending.selectedDeadLetter = letters[moved].id
        } else if state.panes.focused == .presence {
            state.presence.selectedUser = state.presence.selectedUser.addingReportingOverflow(delta).partialValue
        } else {
            let current = state.panes.scroll[state.panes.focused] ?? 0
            state.panes.scroll[state.panes.focused] = current.addingReportingOverflow(delta).partialValue
        }
        clampSelection(&state)
    }

    /// Keeps the selection on a user and every scroll within its content.
    private static func clampSelection(_ state: inout DashboardState) {
        indexUsers(&state)
        let count = state.visibleUsers.count
        state.presence.selectedUser = min(max(0, state.presence.selectedUser), max(0, count - 1))
        let pending = state.snapshot?.thisDevice.map { $0.pendingWrites.count + $0.deadLetters.count } ?? 0
        let limits: [Pane: Int] = [.pending: pending, .events: state.timeline.events.count]
        for (pane, rows) in limits {
            // Scrolled to the end, a pane is still full: its last page, not its last line.
            let page = state.layout.rect(for: pane).map { max(1, $0.height - 2) } ?? 1
            state.panes.scroll[pane] = min(max(0, state.panes.scroll[pane] ?? 0), max(0, rows - page))
        }
    }

    // MARK: - Samples and events

    /// Once a second: the users online; with a device of its own, a mark of the connection, the
    /// skew, the queue depth and the drain.
    private static func sample(_ state: inout DashboardState) {
        guard state.snapshot != nil else { return }
        state.samples.take(
            second: state.now.secondsSince1970, online: state.presence.index.allCounts.online,
            device: state.snapshot?.thisDevice)
    }

    private static func record(_ event: WatchEvent, _ state: inout DashboardState) {
        let at = event.at
        if case .acknowledged(let count) = event.kind { state.samples.acknowledgedThisSecond += count }
        guard let (described, role) = EventText.describe(event.kind) else { return }
        var text = described
        var fold: String?
        if case .connection(let phase) = event.kind {
            // Attempts to reconnect fold into one line that says the latest and why the last failed.
            switch phase {
            case .waitingToRetry(_, _, let reason):
                fold = "this device: reconnecting"
                state.timeline.lastRetryReason = reason
            case .connecting:
                fold = "this device: reconnecting"
                if let reason = state.timeline.lastRetryReason { text += "; last: \(reason)" }
            case .connected, .offline:
                state.timeline.lastRetryReason = nil
            }
        }
        let line = EventLine(at: at, text: text, role: role, fold: fold)
        append(line, &state)
        // What a key did is seen at every size: with the events folded away, on the status line.
        if !state.layout.panes.contains(.events), isOutcomeOfAKey(event.kind, state) { state.timeline.notice = line }
    }

    /// Events that answer a key: a refusal, a transaction's end, a credential, a device added or
    /// crashed, a clock or link change.
    private static func isOutcomeOfAKey(_ kind: WatchEvent.Kind, _ state: DashboardState) -> Bool {
        switch kind {
        case .link(let device, _):
            // This device's link answers n and b; the population's scenario moves the others.
            return state.snapshot?.thisDevice.map { "\($0.user)/\($0.device)" } == device
        case .deadLetter, .transaction, .credential, .deviceAdded, .deviceCrashed, .clock, .clockJump, .linkConditions:
            return true
        case .scenario(_, let good):
            // A scenario's verdicts are shown at every size; its steps only in the events.
            return good != nil
        case .connection, .presence, .presenceBurst, .queue, .acknowledged, .credentialRenewed, .notice:
            return false
        }
    }

    private static func append(_ line: EventLine, _ state: inout DashboardState) {
        if let fold = line.fold, let last = state.timeline.events.last, last.fold == fold {
            state.timeline.events[state.timeline.events.count - 1] = line
            return
        }
        state.timeline.events.append(line)
        if state.timeline.events.count > DashboardState.eventCapacity {
            state.timeline.events.removeFirst(state.timeline.events.count - DashboardState.eventCapacity)
        }
    }
}
