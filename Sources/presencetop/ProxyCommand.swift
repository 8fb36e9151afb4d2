import ArgumentParser
import Foundation
import LinkSim
import Logging

/// `presencetop proxy`: a fault-injecting link as a standalone process, driven over HTTP.
struct ProxyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "proxy",
        abstract: "Put any client behind a fault-injecting link (a TCP proxy), driven over HTTP.",
        discussion: """
            Clients connect to --listen instead of the server; every byte is delayed by the link's \
            conditions and cut by its mode (up, blackhole, offline). Prints one line per port once \
            both are open: 'proxy on 127.0.0.1:PORT → HOST:PORT' and 'control on \
            http://127.0.0.1:PORT/link'. GET /link reads the mode, conditions and stats as JSON; \
            PUT /link with {"mode":"blackhole"}, {"preset":"mobile"}, {"latency_ms":200, \
            "jitter_ms":50, "bytes_per_second":null} changes them. The control interface has no \
            credential: it stays on loopback whatever --host says, unless --control-host moves it, \
            and answers only requests addressed to an IP address or localhost. SIGINT or SIGTERM \
            stops it.
            """
    )

    @Option(help: "The port clients connect to; 0 picks a free one.")
    var listen = 0

    @Option(help: "Where the link leads: HOST:PORT of the server.")
    var upstream: String

    @Option(help: "The link's conditions: a preset (perfect, lan, wifi, mobile, poor).")
    var link = "perfect"

    @Option(help: "The link's mode at start: up, blackhole or offline.")
    var mode = "up"

    @Option(help: "The control interface's port; 0 picks a free one.")
    var control = 0

    @Option(help: "The address the proxy's port binds (0.0.0.0 to put a phone on the LAN behind it).")
    var host = "127.0.0.1"

    @Option(help: "The address the control port binds: loopback unless you ask (it has no credential).")
    var controlHost = "127.0.0.1"

    @Option(help: "Seeds the jitter, so that a run can be repeated.")
    var seed: UInt64 = 1

    func validate() throws {
        guard upstreamAddress != nil else {
            throw ValidationError("--upstream '\(upstream)' is not HOST:PORT")
        }
        guard LinkConditions.preset(named: link) != nil else {
            let names = LinkConditions.presets.map(\.name).joined(separator: ", ")
            throw ValidationError("--link '\(link)' is not a preset (\(names))")
        }
        do {
            _ = try LinkMode.named(mode)
        } catch {
            throw ValidationError("--mode: \(error)")
        }
        for (name, port) in [("--listen", listen), ("--control", control)] where !(0...65_535).contains(port) {
            throw ValidationError("\(name) must be a port (0–65535), not \(port)")
        }
    }

    private var upstreamAddress: (host: String, port: Int)? {
        guard let colon = upstream.lastIndex(of: ":"), let port = Int(upstream[upstream.index(after: colon)...]),
            (1...65_535).contains(port), colon > upstream.startIndex
        else { return nil }
        return (String(upstream[..<colon]), port)
    }

    func run() async throws {
        var logger = Logger(label: "presencetop.proxy") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = .notice
        guard let address = upstreamAddress, let conditions = LinkConditions.preset(named: link) else {
            throw ExitCode(2)
        }
        let proxy = try LinkProxy(
            upstreamHost: address.host, upstreamPort: address.port, conditions: conditions,
            mode: try LinkMode.named(mode), seed: seed, logger: logger)
        let port = try await proxy.start(host: host, port: listen)
        FileHandle.standardOutput.write(
            Data("proxy on \(host):\(port) → \(upstream) (link \(link): \(conditions), \(mode))\n".utf8))
        let controlHost = controlHost
        let controlServer = LinkControlServer(link: proxy, host: controlHost, port: control, logger: logger)
        do {
            try await controlServer.run { controlPort in
                // One line, flushed at once: scripts and tests wait for it.
                FileHandle.standardOutput.write(Data("control on http://\(controlHost):\(controlPort)/link\n".utf8))
            }
        } catch {
            await proxy.stop()
            throw error
        }
        await proxy.stop()
    }
}
