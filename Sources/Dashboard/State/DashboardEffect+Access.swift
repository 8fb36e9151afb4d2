import WatchModel

extension DashboardEffect {
    /// Why this effect is off on a server watched with `access`, in words for the notice line;
    /// nil when it may run.
    ///
    /// A database not on this machine is someone's real data: the dashboard writes nothing to it
    /// unless started with `--device`, and even then never another user's presence, fake tokens
    /// or simulated devices.
    func refusal(under access: WatchSnapshot.Access, server: String) -> String? {
        switch self {
        case .useTheme, .quit, .replay:
            return nil
        default:
            break
        }
        if access.isReadOnly {
            return "read-only: nothing is written to \(server). Start with --device (and --write-path) "
                + "to let this device show its presence and write"
        }
        switch self {
        case .writeForbidden where !access.isLocal:
            return "r writes another user's presence: off on a database not on this machine"
        case .addDevice where !access.isLocal, .crashDevice where !access.isLocal:
            return "simulated devices are off on a database not on this machine"
        case .toggleCredential where access.identity != nil:
            return "a fakes an expired emulator token: off while signed in as \(access.identity ?? "yourself")"
        case .toggleNetwork where !access.linkInPath, .toggleBlackhole where !access.linkInPath,
            .toggleLatency where !access.linkInPath:
            return "n b l drive this device's link, which cannot stand in the middle of TLS to \(server)"
        default:
            return nil
        }
    }
}
