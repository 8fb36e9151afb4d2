import DequeModule

/// Messages that wait, per outlet, for an onDisconnect change to be stored.
///
/// An outlet's messages leave in the order they were sent, so one held message holds back the
/// messages sent after it to the same outlet, and only those: other connections are not kept
/// waiting. Values only, owned by the ``DurabilityPipeline``.
struct HeldMessages {
    /// A message and what it waits for.
    struct Held {
        /// The onDisconnect change that must be stored first (0: none).
        var ticket: UInt64
        var outlet: Outlet
        var item: OutboundItem
        /// What is sent instead if that change is refused (nil: nothing).
        var refusal: OutboundItem?
    }

    private var queues: [Int: Deque<Held>] = [:]

    /// Whether no message waits.
    var isEmpty: Bool { queues.isEmpty }

    /// Holds `item` when its change is not stored yet or its outlet has messages waiting; returns
    /// it instead when it may leave now.
    mutating func hold(
        _ item: OutboundItem, for outlet: Outlet, ticket: UInt64, stored: UInt64, refusal: OutboundItem? = nil
    ) -> OutboundItem? {
        if ticket <= stored && queues[outlet.id] == nil { return item }
        queues[outlet.id, default: []].append(Held(ticket: ticket, outlet: outlet, item: item, refusal: refusal))
        return nil
    }

    /// Takes the messages that may leave now that every change up to `stored` is stored, each
    /// outlet's in the order they were sent.
    mutating func release(stored: UInt64) -> [Held] {
        var released: [Held] = []
        for id in Array(queues.keys) {
            guard var queue = queues.removeValue(forKey: id) else { continue }
            while let first = queue.first, first.ticket <= stored { released.append(queue.removeFirst()) }
            if !queue.isEmpty { queues[id] = queue }
        }
        return released
    }

    /// The changes after `stored` were refused: a message that waits for one becomes its refusal
    /// (or is dropped); returns what may leave now.
    mutating func refuse(after stored: UInt64) -> [Held] {
        for (id, queue) in queues {
            var kept = Deque<Held>()
            for var held in queue {
                if held.ticket > stored {
                    guard let refusal = held.refusal else { continue }
                    held.item = refusal
                    held.ticket = 0
                }
                kept.append(held)
            }
            queues[id] = kept
        }
        return release(stored: stored)
    }

    /// Drops every message (the namespace gives up what its disk did not take).
    mutating func removeAll() { queues = [:] }
}
