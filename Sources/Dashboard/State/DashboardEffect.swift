/// Work the dashboard asks of the simulation; the reducer returns these, the loop performs them.
public enum DashboardEffect: Sendable, Equatable {
    /// This device's network: offline ↔ up.
    case toggleNetwork
    /// This device's network: blackhole ↔ up.
    case toggleBlackhole
    /// This device's link: slow ↔ usual.
    case toggleLatency
    /// Queue this many writes from this device.
    case queueWrites(Int)
    /// Run a transaction from this device.
    case runTransaction
    /// Move this device's clock by this much.
    case shiftClock(by: Duration)
    /// Write where the rules refuse it (another user's presence): a dead letter with the reason.
    case writeForbidden
    /// Send this device's refused write with this id again.
    case retryDeadLetter(Int)
    /// Forget this device's refused write with this id.
    case discardDeadLetter(Int)
    /// Connect this device now instead of waiting out the back-off.
    case reconnectNow
    /// Expire this device's credential, or sign in again.
    case toggleCredential
    /// Add a simulated device.
    case addDevice
    /// Crash a simulated device.
    case crashDevice
    /// Move a replay's time cursor.
    case replay(ReplayStep)
    /// Load and use a theme by name.
    case useTheme(String)
    /// Leave.
    case quit
}
