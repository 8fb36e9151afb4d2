import Foundation
import LinkSim
import RTDBClient
import RTDBCore
import RTDBWire

extension ScenarioRun {
    /// Why a scenario step could not be carried out.
    public struct StepError: Error, CustomStringConvertible {
        /// What went wrong.
        public var description: String
    }

    /// Carries out one step of a scenario file, and reports it as an event.
    static func apply(_ action: ScenarioFile.Action, on simulation: Simulation) async throws(StepError) {
        switch action {
        case .addDevice(let user):
            do {
                simulation.emit(.deviceAdded(try await simulation.population.addDevice(forUser: user).label))
            } catch {
                throw StepError(description: "adding a device for \(user) failed: \(error)")
            }
        case .serverRestart(let downFor):
            try await simulation.restartServer(downFor: .milliseconds(Int64(downFor * 1000)))
        case .restart(let device):
            guard case .population(let user, let name) = device else { return }
            do {
                guard let restarted = try await simulation.population.restart(user: user, name: name) else {
                    throw StepError(description: "no device \(device)")
                }
                simulation.emit(.notice("\(restarted.label) restarted"))
            } catch let error as StepError {
                throw error
            } catch {
                throw StepError(description: "restarting \(device) failed: \(error)")
            }
        default:
            guard let device = action.device else { return }
            if device == .this {
                try applyToThisDevice(action, on: simulation)
            } else {
                try await applyToPopulation(action, device, on: simulation)
            }
        }
    }

    private static func applyToThisDevice(_ action: ScenarioFile.Action, on simulation: Simulation) throws(StepError) {
        guard let device = simulation.thisDevice else {
            throw StepError(description: "this run has no device of its own")
        }
        switch action {
        case .network(_, let mode): simulation.setNetwork(mode)
        case .conditions(_, let conditions):
            do {
                try device.link.setConditions(conditions)
            } catch {
                throw StepError(description: "\(error)")
            }
            simulation.emit(.linkConditions(conditions.description))
        case .write(_, let count): simulation.queueWrites(count)
        case .transaction: simulation.runTransaction()
        case .signIn(_, let on): device.apply(on ? .signIn : .signOut)
        case .clockJump(_, let seconds): simulation.shiftClock(by: .milliseconds(Int64(seconds * 1000)))
        case .credential(_, let expired):
            if expired != simulation.credential.isExpired { simulation.toggleCredential() }
        default: break
        }
    }

    private static func applyToPopulation(
        _ action: ScenarioFile.Action, _ label: ScenarioFile.Device, on simulation: Simulation
    ) async throws(StepError) {
        guard case .population(let user, let name) = label,
            let device = simulation.population.device(user: user, name: name)
        else { throw StepError(description: "no device \(label)") }
        switch action {
        case .network(_, let mode):
            device.apply(.network(mode))
            simulation.emit(.link(device: device.label, mode: DeviceLink.Mode(mode)))
        case .conditions(_, let conditions):
            do {
                try device.link.setConditions(conditions)
            } catch {
                throw StepError(description: "\(error)")
            }
        case .write(_, let count):
            let notes = device.database.reference(withPath: simulation.writePath("notes/\(device.user)"))
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
            simulation.emit(.deviceCrashed(device.label))
        case .signIn(_, let on): device.apply(on ? .signIn : .signOut)
        case .clockJump(_, let seconds): device.clock.shift(by: .milliseconds(Int64(seconds * 1000)))
        case .credential(_, let expired):
            let issuedAt = device.clock.now().secondsSince1970 - (expired ? 3_660 : 0)
            device.database.setCredential(
                .idToken(AuthToken.emulatorToken(uid: device.user, issuedAt: issuedAt, lifetime: 3_600)))
        default: break
        }
    }
}
