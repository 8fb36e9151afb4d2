import Foundation
import LinkSim
import RTDBClient
import RTDBCore
import RTDBWire

extension Simulation {
    /// Why a scenario step could not be carried out.
    public struct StepError: Error, CustomStringConvertible {
        /// What went wrong.
        public var description: String
    }

    /// Carries out one step of a scenario file, and reports it as an event.
    public func apply(_ action: ScenarioFile.Action) async throws(StepError) {
        switch action {
        case .addDevice(let user):
            do {
                emit(.deviceAdded(try await population.addDevice(forUser: user).label))
            } catch {
                throw StepError(description: "adding a device for \(user) failed: \(error)")
            }
        case .serverRestart(let downFor):
            try await restartServer(downFor: .milliseconds(Int64(downFor * 1000)))
        case .restart(let device):
            guard case .population(let user, let name) = device else { return }
            do {
                guard let restarted = try await population.restart(user: user, name: name) else {
                    throw StepError(description: "no device \(device)")
                }
                emit(.notice("\(restarted.label) restarted"))
            } catch let error as StepError {
                throw error
            } catch {
                throw StepError(description: "restarting \(device) failed: \(error)")
            }
        default:
            guard let device = action.device else { return }
            if device == .this {
                try applyToThisDevice(action)
            } else {
                try await applyToPopulation(action, device)
            }
        }
    }

    private func applyToThisDevice(_ action: ScenarioFile.Action) throws(StepError) {
        guard let device = thisDevice else { throw StepError(description: "this run has no device of its own") }
        switch action {
        case .network(_, let mode): setNetwork(mode)
        case .conditions(_, let conditions):
            do {
                try device.link.setConditions(conditions)
            } catch {
                throw StepError(description: "\(error)")
            }
            emit(.linkConditions(conditions.description))
        case .write(_, let count): queueWrites(count)
        case .transaction: runTransaction()
        case .signIn(_, let on): device.apply(on ? .signIn : .signOut)
        case .clockJump(_, let seconds): shiftClock(by: .milliseconds(Int64(seconds * 1000)))
        case .credential(_, let expired):
            if expired != credential.isExpired { toggleCredential() }
        default: break
        }
    }

    private func applyToPopulation(_ action: ScenarioFile.Action, _ label: ScenarioFile.Device) async throws(StepError)
    {
        guard case .population(let user, let name) = label, let device = population.device(user: user, name: name)
        else { throw StepError(description: "no device \(label)") }
        switch action {
        case .network(_, let mode):
            device.apply(.network(mode))
            emit(.link(device: device.label, mode: DeviceLink.Mode(mode)))
        case .conditions(_, let conditions):
            do {
                try device.link.setConditions(conditions)
            } catch {
                throw StepError(description: "\(error)")
            }
        case .write(_, let count):
            let notes = device.database.reference(withPath: writePath("notes/\(device.user)"))
            for index in 0..<count {
                notes.childByAutoId().setValue(
                    ["text": "note \(index + 1) of \(count)", "at": ServerValue.timestamp()], andPriority: nil)
            }
        case .transaction:
            device.database.reference(withPath: "counters/\(device.user)/taps").runTransactionBlock(
                { data in
                    data.value = ((data.value as? Int) ?? 0) + 1
                    return .success(withValue: data)
                }, andCompletionBlock: { _, _, _ in })
        case .crash:
            await device.crash()
            emit(.deviceCrashed(device.label))
        case .signIn(_, let on): device.apply(on ? .signIn : .signOut)
        case .clockJump(_, let seconds): device.clock.shift(by: .milliseconds(Int64(seconds * 1000)))
        case .credential(_, let expired):
            let issuedAt = device.clock.now().secondsSince1970 - (expired ? 3_660 : 0)
            device.database.setCredential(
                .idToken(AuthToken.emulatorToken(uid: device.user, issuedAt: issuedAt, lifetime: 3_600)))
        default: break
        }
    }

    /// Stops the embedded server, waits `downFor`, and starts it again on the same port (with its
    /// data, when it keeps it on disk): every client sees its connection end and reconnects.
    public func restartServer(downFor: Duration) async throws(StepError) {
        guard let old = embedded else {
            throw StepError(description: "a server restart needs the embedded server, not \(target)")
        }
        guard case .embedded(let dataDirectory) = options.server else { return }
        await old.stop()
        emit(.notice("server stopped; it starts again in \(downFor)"))
        try? await Task.sleep(for: downFor)
        do {
            let server = try await EmbeddedServer.start(
                dataDirectory: dataDirectory, port: old.port, logger: logger, time: options.serverTime
            ) {
                Self.configureEmbedded(&$0, options)
            }
            embeddedServer.withLock { $0 = server }
            emit(.notice("server started again on port \(server.port)"))
        } catch {
            throw StepError(description: "the server did not start again: \(error)")
        }
    }
}

extension Simulation {
    /// Plays a scenario file (``ScenarioRun/play(_:on:report:)``), each step and verdict an event.
    ///
    /// The last event is the verdict: `scenario "NAME": PASS, 4 of 4 expectations held`.
    public func play(_ scenario: ScenarioFile) async -> [ScenarioRun.Verdict] {
        let verdicts = await ScenarioRun.play(scenario, on: self) { [weak self] event in
            let line = event.line
            self?.emit(.scenario(line.text, good: line.good))
        }
        let verdict = ScenarioRun.summary(scenario, verdicts)
        emit(.scenario(verdict.text, good: verdict.passed))
        return verdicts
    }
}
