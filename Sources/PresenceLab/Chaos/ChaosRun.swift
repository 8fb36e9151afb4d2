import Foundation
import LinkSim
import Logging
import Presence
import RTDBClient
import RTDBCore
import Synchronization

/// A seeded chaos run over the real stack: a `serve` process, devices with their own links and
/// SQLite files running the presence flow and writing, and faults from the seed; then healing
/// and the checks (docs/reliability.md).
public enum ChaosRun {
    /// Runs the chaos on loopback and checks the truth at the end.
    ///
    /// - Parameter progress: Told each fault as it strikes, and each phase.
    public static func run(
        _ options: ChaosOptions, logger: Logger = Logger(label: "presencetop.chaos"),
        progress: @escaping @Sendable (String) -> Void = { _ in }
    ) async throws -> ChaosReport {
        let folder = options.folder
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let rules = folder.appendingPathComponent("presence.rules.json")
        try PresenceRules.text.write(to: rules, atomically: true, encoding: .utf8)
        let server = ChaosServer(
            command: options.serverCommand + [
                "--data", folder.appendingPathComponent("server").path, "--rules", rules.path, "--heartbeat-timeout",
                String(options.heartbeatTimeout), "--enforce-token-expiry", "--log-level", "warning",
                "--lab-disk-faults",
            ])
        try await server.start()
        defer { Task { await server.stop() } }
        progress("server listening on port \(server.port)")
        let stage = ChaosStage(
            server: server,
            devices: .loopback(
                host: "127.0.0.1", port: server.port, namespace: "chaos", conditions: .perfect, seed: options.seed,
                logger: logger))
        return try await play(options, on: stage, progress: progress)
    }

    /// Plays the run on `stage`: devices boot, write and suffer the seed's faults, then everything
    /// heals, some devices die for good, and the checks give the report.
    static func play(
        _ options: ChaosOptions, on stage: ChaosStage, progress: @escaping @Sendable (String) -> Void
    ) async throws -> ChaosReport {
        let devices = (0..<options.devices).map { index in
            ChaosDevice(
                index: index, user: "u\(index / max(1, options.devicesPerUser))",
                name: "d\(index % max(1, options.devicesPerUser))",
                folder: options.folder.appendingPathComponent("devices/\(index)"), stage: stage)
        }
        for device in devices { try await device.boot() }
        var report = ChaosReport(
            seed: options.seed, devices: devices.count, users: Set(devices.map(\.user)).count,
            duration: options.duration,
            events: ChaosSchedule.events(
                seed: options.seed, devices: devices.count, duration: options.duration,
                kinds: options.faultKinds))
        progress("\(devices.count) devices up; \(report.events.count) faults over \(Int(options.duration)) s")

        let begun = stage.elapsed()
        let writing = Flag()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for device in devices {
                group.addTask { await write(device, seed: options.seed, while: writing, on: stage) }
            }
            for event in report.events {
                try await stage.sleep(untilElapsed: begun + .milliseconds(Int64(event.at * 1000)))
                progress(event.description)
                group.addTask { try await strike(event, devices: devices, on: stage) }
            }
            try await stage.sleep(untilElapsed: begun + .milliseconds(Int64(options.duration * 1000)))
            writing.lower()
            try await group.waitForAll()
        }
        try await heal(devices, on: stage, into: &report, progress: progress)
        try await settle(devices, options: options, on: stage, into: &report, progress: progress)
        await check(devices, server: stage.server, into: &report)
        for device in devices { await device.shutDown() }
        await stage.server.stop()
        return report
    }

    /// A flag the writers read and the run lowers once.
    final class Flag: Sendable {
        private let raised = Atomic<Bool>(true)
        var isRaised: Bool { raised.load(ordering: .relaxed) }
        func lower() { raised.store(false, ordering: .relaxed) }
    }

    /// A device's app: a write every 0.2–1.5 s, of a kind its own seeded draw picks.
    private static func write(_ device: ChaosDevice, seed: UInt64, while writing: Flag, on stage: ChaosStage) async {
        var random = SeededRandom(seed: seed &* 7_919 &+ UInt64(device.index))
        while writing.isRaised {
            try? await stage.sleep(.milliseconds(Int.random(in: 200...1_500, using: &random)))
            device.write(choice: Int.random(in: 0..<4, using: &random))
        }
    }

    private static func strike(_ event: ChaosEvent, devices: [ChaosDevice], on stage: ChaosStage) async throws {
        let server = stage.server
        func hold(_ seconds: Double) async throws { try await stage.hold(seconds) }
        guard let index = event.device else {
            switch event.fault {
            case .serverKill(let down):
                try await server.kill()
                try await hold(down)
                try await server.start()
            case .serverDiskFull(let seconds):
                server.setDiskFull(true)
                try await hold(seconds)
                server.setDiskFull(false)
            default:
                break
            }
            return
        }
        let device = devices[index]
        switch event.fault {
        case .offline(let seconds):
            device.setNetwork(.offline)
            try await hold(seconds)
            device.setNetwork(.up)
        case .blackhole(let seconds):
            device.setNetwork(.blackhole)
            try await hold(seconds)
            device.setNetwork(.up)
        case .latency(let milliseconds, let seconds):
            device.setNetwork(.up, conditions: LinkConditions(latency: .milliseconds(milliseconds)))
            try await hold(seconds)
            device.setNetwork(.up)
        case .bandwidth(let bytes, let seconds):
            device.setNetwork(.up, conditions: LinkConditions(bytesPerSecond: bytes))
            try await hold(seconds)
            device.setNetwork(.up)
        case .crash(let down):
            guard !device.isDown else { return }
            await device.crash()
            try await hold(down)
            try await device.boot()
        case .clockJump(let milliseconds):
            device.clock.shift(by: .milliseconds(milliseconds))
        case .credentialExpiry(let seconds):
            device.expireCredential()
            try await hold(seconds)
            device.renewCredential()
        case .diskFull(let seconds):
            device.setDiskFull(true)
            try await hold(seconds)
            device.setDiskFull(false)
        case .serverKill, .serverDiskFull:
            break
        }
    }

    /// Lifts every fault: the server up, every device restarted from its file, online, signed in;
    /// then waits until every queue is empty.
    private static func heal(
        _ devices: [ChaosDevice], on stage: ChaosStage, into report: inout ChaosReport,
        progress: @Sendable (String) -> Void
    ) async throws {
        progress("healing")
        let server = stage.server
        let start = stage.elapsed()
        if !server.isRunning { try await server.start() }
        server.setDiskFull(false)
        for device in devices {
            device.setDiskFull(false)
            if device.isDown { try await device.boot() }
            device.setNetwork(.up)
            device.renewCredential()
            // The app sends again what the server could not store (its disk was full).
            let notStored = device.retryWritesNotStored()
            report.sentAgainAfterServerDiskFull += notStored.sentAgain
            report.droppedNotStored += notStored.dropped
        }
        let deadline = start + .seconds(120)
        var stuck: [String] = []
        for device in devices where !(await device.drained(before: deadline)) {
            stuck.append("\(device.label): \(device.pending.queued) writes still queued")
        }
        report.drainedAfter = stuck.isEmpty ? (stage.elapsed() - start) / .seconds(1) : nil
        report.problems += stuck.prefix(10)
        for device in devices where !device.pending.deadLetters.isEmpty {
            let letters = device.pending.deadLetters
            report.problems.append("\(device.label): \(letters.count) writes refused, first: \(letters[0])")
        }
    }

    /// Kills a seeded share of the devices for good (half silently), then waits for presence to
    /// show exactly the devices left, within the heartbeat timeout and a margin.
    private static func settle(
        _ devices: [ChaosDevice], options: ChaosOptions, on stage: ChaosStage, into report: inout ChaosReport,
        progress: @Sendable (String) -> Void
    ) async throws {
        var random = SeededRandom(seed: options.seed &+ 0x5EED)
        let doomed = devices.shuffled(using: &random).prefix(
            Int((Double(devices.count) * options.finalDeaths).rounded()))
        for (offset, device) in doomed.enumerated() { await device.dieForGood(silently: offset % 2 == 0) }
        report.gone = doomed.count
        progress("\(doomed.count) devices died for good; waiting for presence to show the truth")
        let start = stage.elapsed()
        let deadline = start + .seconds(options.heartbeatTimeout + 15)
        var lastMismatch = "no answer from the server"
        while stage.elapsed() < deadline {
            if let users = await stage.server.read("users") {
                if let mismatch = presenceMismatch(users, devices: devices) {
                    lastMismatch = mismatch
                } else {
                    report.presenceSettledAfter = (stage.elapsed() - start) / .seconds(1)
                    return
                }
            }
            try await stage.sleep(.milliseconds(250))
        }
        report.problems.append("presence never showed the truth: \(lastMismatch)")
    }

    /// What presence gets wrong, or nil: each live device exactly its one entry, nothing else,
    /// and a `lastOnline` for every user one of whose devices was ever cut off.
    static func presenceMismatch(_ users: JSONValue, devices: [ChaosDevice]) -> String? {
        for (user, owned) in Dictionary(grouping: devices, by: \.user).sorted(by: { $0.key < $1.key }) {
            let node = users[user]
            let shown = Set(node?["connections"]?.objectValue?.keys.map(\.string) ?? [])
            let live = owned.filter { !$0.isGone }
            let expected = Set(live.compactMap(\.entryKey))
            if expected.count != live.count { return "\(user): a live device has no entry key yet" }
            if shown != expected {
                let entries = node?["connections"]?.objectValue ?? [:]
                let strays = shown.subtracting(expected).sorted().map { key in
                    "\(key) (written by \(entries[CodeUnitString(key)]?["device"]?.stringValue ?? "?"))"
                }
                let devices = owned.map { "\($0.name)\($0.isGone ? " gone" : "") owns \($0.entryKey ?? "nothing")" }
                return "\(user): entries nobody owns: \(strays), missing: \(expected.subtracting(shown).sorted()); "
                    + devices.joined(separator: ", ")
            }
            if owned.contains(where: \.wentOffline), node?["lastOnline"]?.intValue == nil {
                return "\(user): a device went offline but there is no lastOnline"
            }
        }
        return nil
    }

    /// Compares what each device was told it wrote with what the server holds: every accepted
    /// write exactly once.
    private static func check(_ devices: [ChaosDevice], server: any ChaosServerControl, into report: inout ChaosReport)
        async
    {
        guard let notes = await server.read("notes") else {
            report.problems.append("the server did not answer the final read of notes")
            return
        }
        for device in devices {
            let ledger = device.ledger
            report.accepted["sets", default: 0] += ledger.sets.count
            report.accepted["updates", default: 0] += ledger.updates.count
            report.accepted["increments", default: 0] += ledger.increments
            report.accepted["transactions committed", default: 0] += ledger.transactionsCommitted
            report.refusedOnFullDisk += ledger.refusedOnFullDisk
            let node = notes[device.user]?[device.name]
            /// The numbered children of `child`; the REST API prints mostly-numbered ones as an
            /// array, as Firebase does.
            func keys(_ child: String) -> Set<Int> {
                switch node?[child] {
                case .object(let members)?: return Set(members.keys.compactMap { Int($0.string) })
                case .array(let elements)?: return Set(elements.indices.filter { elements[$0] != .null })
                default: return []
                }
            }
            let label = device.label
            let sets = keys("s")
            if sets != ledger.sets {
                report.problems.append(
                    "\(label): sets missing \(ledger.sets.subtracting(sets).sorted().prefix(5)), unexpected \(sets.subtracting(ledger.sets).sorted().prefix(5))"
                )
            }
            let updates = keys("m")
            if updates != ledger.updates {
                report.problems.append(
                    "\(label): updates missing \(ledger.updates.subtracting(updates).sorted().prefix(5)), unexpected \(updates.subtracting(ledger.updates).sorted().prefix(5))"
                )
            }
            let updateCount = node?["mc"]?.intValue ?? 0
            if updateCount != Int64(ledger.updates.count) {
                report.problems.append(
                    "\(label): the updates' increment is \(updateCount), \(ledger.updates.count) accepted")
            }
            let increments = node?["c"]?.intValue ?? 0
            if increments != Int64(ledger.increments) {
                report.problems.append("\(label): counter \(increments), \(ledger.increments) increments accepted")
            }
            let transactions = Int(node?["t"]?.intValue ?? 0)
            if transactions < ledger.transactionsCommitted || transactions > ledger.transactionsStarted {
                report.problems.append(
                    "\(label): transaction counter \(transactions), \(ledger.transactionsCommitted) committed of \(ledger.transactionsStarted) started"
                )
            }
        }
    }
}
