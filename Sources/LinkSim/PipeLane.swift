import NIOCore

/// What travels one way through a ``LinkPipe``: the items on their way, the bytes handed to the
/// receiving socket and not yet sent, and the timer set for the next item due.
struct PipeLane {
    /// The items on their way, each due at its time.
    var queue = DeliveryQueue<LinkPipe.Item>()
    /// The bytes handed to the receiving socket and not yet sent.
    var unsent = 0
    /// Wakes the pipe when the next item is due.
    var timer: Scheduled<Void>?

    /// Cancels the timer, if one is set.
    mutating func cancelTimer() {
        timer?.cancel()
        timer = nil
    }

    /// Drops everything on its way (the connection ended).
    mutating func clear() {
        cancelTimer()
        queue.removeAll()
        unsent = 0
    }
}
