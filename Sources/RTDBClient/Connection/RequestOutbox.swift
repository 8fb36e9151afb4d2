import RTDBCore
import RTDBWire

/// The live connection's requests: their numbers, the callbacks waiting for their responses,
/// and frames gathered to go out together.
struct RequestOutbox {
    /// How many frames go to the transport at once while gathering: enough that a queue of
    /// thousands costs a few hundred socket writes and event-loop hops, few enough that the
    /// server starts on the first while the rest are encoded.
    static let framesPerWrite = 64

    private var lastNumber = 0
    private var callbacks: [Int: (WireStatus, JSONValue) -> Void] = [:]
    /// Frames held to go out as one transport write, while gathering.
    private var gathered: [String]?

    /// Numbers the next request, keeping `onComplete` for its response.
    mutating func number(onComplete: ((WireStatus, JSONValue) -> Void)?) -> Int {
        lastNumber += 1
        if let onComplete { callbacks[lastNumber] = onComplete }
        return lastNumber
    }

    /// Takes the callback of response `number` (each runs once).
    mutating func callback(for number: Int) -> ((WireStatus, JSONValue) -> Void)? {
        callbacks.removeValue(forKey: number)
    }

    /// Forgets every callback: the connection their responses would come on is gone.
    mutating func forgetCallbacks() { callbacks = [:] }

    /// Whether frames are being gathered.
    var isGathering: Bool { gathered != nil }

    /// Starts gathering frames.
    mutating func startGathering() { gathered = [] }

    /// `frame` as it should go: alone at once (`[frame]`) when not gathering; else held, and the
    /// batch returned when it is full (nil: nothing to send yet).
    mutating func pass(_ frame: String) -> [String]? {
        guard gathered != nil else { return [frame] }
        gathered?.append(frame)
        return (gathered?.count ?? 0) >= Self.framesPerWrite ? takeGathered() : nil
    }

    /// The frames gathered so far (nil if none), still gathering.
    mutating func takeGathered() -> [String]? {
        guard let frames = gathered, !frames.isEmpty else { return nil }
        gathered = []
        return frames
    }

    /// Stops gathering; returns the frames still held.
    mutating func stopGathering() -> [String]? {
        defer { gathered = nil }
        return takeGathered()
    }
}
