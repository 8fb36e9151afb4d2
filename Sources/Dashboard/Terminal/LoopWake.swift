/// What wakes the dashboard loop's wait for input before its timeout: another thread telling it
/// that the source has answered (a snapshot, a view, an event).
public protocol LoopWake: Sendable {
    /// A descriptor that turns readable on a wake, for a terminal that polls it beside its input.
    var descriptor: Int32 { get }
    /// Waits until a wake or until `timeout` passes (nil: no limit); true when woken.
    func wait(upTo timeout: Duration?) -> Bool
}
