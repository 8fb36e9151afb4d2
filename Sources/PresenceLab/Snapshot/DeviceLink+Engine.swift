import LinkSim

extension DeviceLink {
    /// The link's stats in the snapshot's terms.
    init(_ stats: LinkStats) {
        self.init(
            mode: Mode(stats.mode), conditions: stats.conditions.description, bytesUp: stats.bytesUp,
            bytesDown: stats.bytesDown)
    }
}

extension DeviceLink.Mode {
    /// The link's mode in the snapshot's terms.
    init(_ mode: LinkMode) {
        switch mode {
        case .up: self = .up
        case .blackhole: self = .blackhole
        case .offline: self = .offline
        }
    }
}
