import LinkSim
import Logging
import RTDBClient
import RTDBCore

/// How the lab's devices reach the server: each its own link, and a database behind it.
///
/// On loopback (``loopback(host:port:namespace:conditions:seed:logger:)``), a ``LinkProxy`` in
/// front of a server on a socket, on the machine's clock; simulated
/// (``simulated(_:heartbeat:conditions:seed:logger:)``), a ``SimulatedLink`` to a
/// ``SimulatedServer`` on the stage's clock, which only the caller moves.
public struct DeviceOpener: Sendable {
    /// Opens device `number`'s link (`label`, as `user/name`; the number seeds its jitter) and a
    /// database through it, on `time` (the device's clock, which may be off).
    public let open:
        @Sendable (_ number: Int, _ label: String, _ time: TimeSource) async throws -> (any NetworkLink, Database)
    /// The time the devices' clocks start from (each may be set off it).
    public let time: TimeSource

    /// Opens devices with `open`, their clocks set off `time`.
    public init(
        time: TimeSource,
        open:
            @escaping @Sendable (_ number: Int, _ label: String, _ time: TimeSource) async throws -> (
                any NetworkLink, Database
            )
    ) {
        self.time = time
        self.open = open
    }

    /// Why a device could not be opened.
    public struct Refusal: Error, CustomStringConvertible {
        /// What stood in the way.
        public var description: String
    }

    /// Each device behind a link proxy of its own on loopback, in front of `host:port`.
    public static func loopback(
        host: String, port: Int, namespace: String, conditions: LinkConditions, seed: UInt64, logger: Logger
    ) -> DeviceOpener {
        DeviceOpener(time: .system) { number, _, time in
            if let refusal = DescriptorHeadroom.refusal() { throw Refusal(description: refusal) }
            let link = try LinkProxy(
                upstreamHost: host, upstreamPort: port, conditions: conditions, seed: seed &+ UInt64(number),
                logger: logger)
            let linkPort = try await link.start()
            let database = Database(url: "http://127.0.0.1:\(linkPort)?ns=\(namespace)", time: time, logger: logger)
            return (link, database)
        }
    }

    /// Each device on a simulated link of its own to `stage`'s server, whose end of it ends a
    /// session silent for `heartbeat`.
    public static func simulated(
        _ stage: SimulatedStage, heartbeat: Duration, conditions: LinkConditions, seed: UInt64, logger: Logger
    ) -> DeviceOpener {
        DeviceOpener(time: stage.time) { number, label, time in
            let link = SimulatedLink(
                server: stage.server, time: stage.time, heartbeat: heartbeat, seed: seed &+ UInt64(number),
                label: label)
            try link.setConditions(conditions)
            return (link, stage.database(through: link, time: time, logger: logger))
        }
    }
}
