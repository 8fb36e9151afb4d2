import Synchronization

/// A transport connection's events on their way to the connection's queue, in order: one hop
/// through the queue takes every event that arrived meanwhile, not one hop an event.
///
/// A draining queue's acknowledgements arrive thousands a second, many in one read of the
/// socket; each was a block of its own on the queue.
final class TransportInbox: Sendable {
    private let events = Mutex<[TransportEvent]>([])

    /// Adds an event; true when the inbox was empty, so a hop must be scheduled to take it (one
    /// already scheduled takes it otherwise).
    func put(_ event: TransportEvent) -> Bool {
        events.withLock { events in
            events.append(event)
            return events.count == 1
        }
    }

    /// Takes every event waiting, oldest first.
    func take() -> [TransportEvent] {
        events.withLock { events in
            var taken: [TransportEvent] = []
            swap(&taken, &events)
            return taken
        }
    }
}
