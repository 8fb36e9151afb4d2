import RTDBClient
import RTDBCore
import Synchronization

/// What the events last told of this device: its connection's phase and clock jump, its write
/// queue and dead letters (with why the rules refused each, once the server has said), and
/// whether its link is slowed; each change answered with what is new, for the simulation to tell.
final class ThisDeviceLedger: Sendable {
    private struct State {
        var phase: ConnectionPhase?
        var lastClockJump: ClockJump?
        var pendingWrites: [PendingWrite] = []
        var deadLetters: [DeadLetter] = []
        /// Why the rules refused each dead letter, by its id, as the server's coverage report
        /// tells it (the client hears only Firebase's `Permission denied`).
        var refusalExplanations: [Int: String] = [:]
        var isSlow = false
    }

    private let state = Mutex(State())

    /// Notes the connection's status; whether its phase changed, and whether its clock jumped.
    func connectionChanged(to status: ConnectionStatus) -> (phaseChanged: Bool, clockJumped: Bool) {
        state.withLock { state in
            defer { (state.phase, state.lastClockJump) = (status.phase, status.lastClockJump) }
            return (state.phase != status.phase, state.lastClockJump != status.lastClockJump)
        }
    }

    /// Notes the queue and the dead letters now; how many writes were acknowledged since, which
    /// dead letters are new, and whether the queue's depth changed.
    func queueChanged(to queue: [PendingWrite], deadLetters: [DeadLetter]) -> (
        acknowledged: Int, refused: [DeadLetter], depthChanged: Bool
    ) {
        state.withLock { state in
            let remaining = Set(queue.map(\.id))
            let knownDead = Set(state.deadLetters.map(\.id))
            let refused = deadLetters.filter { !knownDead.contains($0.id) }
            let refusedIDs = Set(refused.map(\.id))
            let acknowledged = state.pendingWrites.filter { !remaining.contains($0.id) && !refusedIDs.contains($0.id) }
            let depthChanged = state.pendingWrites.count != queue.count
            state.pendingWrites = queue
            state.deadLetters = deadLetters
            return (acknowledged.count, refused, depthChanged)
        }
    }

    /// Keeps the server's explanations of refused writes, by dead letter id.
    func explained(_ found: [Int: String]) {
        state.withLock { $0.refusalExplanations.merge(found) { _, new in new } }
    }

    /// Switches between the usual link conditions and slow ones; whether it is slow now.
    func toggleSlow() -> Bool {
        state.withLock { state in
            state.isSlow.toggle()
            return state.isSlow
        }
    }

    /// The queue, the dead letters, whether the link is slowed, and the refusals' explanations,
    /// as last told.
    var current: (pendingWrites: [PendingWrite], deadLetters: [DeadLetter], isSlow: Bool, explanations: [Int: String]) {
        state.withLock { ($0.pendingWrites, $0.deadLetters, $0.isSlow, $0.refusalExplanations) }
    }
}
