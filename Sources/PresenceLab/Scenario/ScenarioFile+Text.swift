extension ScenarioFile.Action: CustomStringConvertible {
    /// `alex/phone network offline`, `server restarts (down 2.0 s)`.
    public var description: String {
        switch self {
        case .network(let device, let mode): "\(device) network \(mode)"
        case .conditions(let device, let conditions): "\(device) link \(conditions)"
        case .write(let device, let count): "\(device) writes \(count) note\(count == 1 ? "" : "s")"
        case .transaction(let device): "\(device) runs a transaction"
        case .crash(let device): "\(device) crashes"
        case .restart(let device): "\(device) restarts"
        case .signIn(let device, let on): "\(device) signs \(on ? "in" : "out")"
        case .addDevice(let user): "\(user) adds a device"
        case .clockJump(let device, let seconds): "\(device) clock jumps \(seconds >= 0 ? "+" : "")\(seconds) s"
        case .credential(let device, let expired): "\(device) credential \(expired ? "expires" : "renewed")"
        case .serverRestart(let down): "server restarts (down \(down) s)"
        }
    }
}

extension ScenarioFile.Condition: CustomStringConvertible {
    /// `alex offline`, `queue of this empty`, `no ghosts`.
    public var description: String {
        switch self {
        case .userOffline(let user): "\(user) offline"
        case .userOnline(let user): "\(user) online"
        case .queueEmpty(let device): "queue of \(device) empty"
        case .oneEntryPerLiveDevice: "exactly one entry per live device"
        case .noGhosts: "no ghosts"
        }
    }
}

extension ScenarioRun.Event {
    /// The event as a line of a timeline, and whether it is good news (nil: neither).
    public var line: (text: String, good: Bool?) {
        switch self {
        case .step(let step):
            return ("▸ \(Self.seconds(step.at)) \(step.action)", nil)
        case .stepFailed(let step, let why):
            return ("✗ step at \(Self.seconds(step.at)) (line \(step.line)) \(step.action) failed: \(why)", false)
        case .decided(let index, let expectation, let verdict):
            let name =
                "expectation \(index + 1) (line \(expectation.line)) \(expectation.condition) within \(Self.seconds(expectation.within))"
            switch verdict {
            case .passed(let after): return ("✓ \(name): held after \(Self.seconds(after / .seconds(1)))", true)
            case .failed(let why): return ("✗ \(name): failed, \(why)", false)
            case .pending: return ("… \(name)", nil)
            }
        }
    }

    private static func seconds(_ value: Double) -> String {
        let tenths = (value * 10).rounded() / 10
        return "\(tenths) s"
    }
}
