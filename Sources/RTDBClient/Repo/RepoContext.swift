import Dispatch
import Logging
import RTDBCore

/// What a repo is given when it is made and keeps unchanged: where its work and the app's
/// callbacks run, its wall clock, where it logs, what it signals, and how it was configured.
struct RepoContext: Sendable {
    /// The serial queue all of the engine's work runs on (targeting the confinement's, if any).
    let engineQueue: DispatchQueue
    /// Where the app's callbacks run.
    let callbackQueue: DispatchQueue
    /// The wall clock.
    let clock: WallClock
    /// Where it logs.
    let logger: Logger
    /// Signalled after each change the engine makes visible (``Database/changes``).
    let changes: ChangeSignal
    /// Whether the queue targets an ``EngineConfinement``'s: on that queue, this repo's work
    /// runs inline.
    let isConfined: Bool
    /// Whether persistence was asked for (API writes then wait until they are on disk); fixed at
    /// init, unlike the store, which is opened on the queue, so any thread may read it.
    let persistsWrites: Bool
}
