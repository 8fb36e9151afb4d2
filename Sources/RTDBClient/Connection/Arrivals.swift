import RTDBCore
import RTDBWire

/// What arrives on the current transport connection: its events' inbox (which timed the hello),
/// messages assembled from frames, when the server was last heard, and the gauges other threads
/// read.
struct Arrivals {
    /// The gauges the status snapshot reads from other threads.
    let gauges = ArrivalGauges()
    /// The current transport connection's events on their way to the queue.
    private(set) var inbox: TransportInbox?
    private var assembler = Self.newAssembler()
    /// When the server was last heard (a frame, or the upgrade's answer).
    var lastActivity = UnixTime.epoch {
        didSet { gauges.heard(at: lastActivity) }
    }

    /// Starts on a new transport connection, its events coming through `inbox`: a message cut
    /// off with the last one is not arriving any more.
    mutating func start(_ inbox: TransportInbox) {
        assembler = Self.newAssembler()
        gauges.show(nil)
        self.inbox = inbox
    }

    /// Takes a frame; returns the message it completes, if it does.
    mutating func receive(_ frame: String) -> String? {
        let message = (try? assembler.receive(frame)) ?? nil
        gauges.show(assembler.progress)
        return message
    }

    /// The connection closed: nothing is arriving.
    func closed() { gauges.show(nil) }

    private static func newAssembler() -> FrameAssembler {
        FrameAssembler(maxMessageBytes: 512 << 20, countsEntries: true)
    }
}
