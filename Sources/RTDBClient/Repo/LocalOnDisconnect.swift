import RTDBCore
import RTDBWire

/// This connection's onDisconnect operations as the client knows them: what they will write
/// (applied locally when the connection ends, as the SDKs do) and how they were registered (for
/// the report).
struct LocalOnDisconnect {
    /// What they will write, by path.
    private(set) var tree = SparseSnapshotTree()
    /// The operations as registered, in order.
    private(set) var registrations: [OnDisconnectRegistration] = []

    /// The server acknowledged a set (a remove, for an empty node) of `node` at `path` at `time`:
    /// it replaces what was registered at and below the path.
    mutating func acknowledgedSet(_ node: Node, at path: Path, at time: UnixTime) {
        tree.remember(path, node)
        forget(at: path)
        registrations.append(
            OnDisconnectRegistration(path: path, kind: node.isEmpty ? .remove : .set, registeredAt: time))
    }

    /// The server acknowledged an update of `children` (relative paths) at `path`: it adds to
    /// what was registered.
    mutating func acknowledgedUpdate(_ children: [(path: Path, node: Node)], at path: Path, at time: UnixTime) {
        for (relative, node) in children { tree.remember(path.child(relative), node) }
        registrations.append(OnDisconnectRegistration(path: path, kind: .update, registeredAt: time))
    }

    /// The server acknowledged a cancel at `path`: what was registered at and below it is gone.
    mutating func acknowledgedCancel(at path: Path) {
        tree.forget(path)
        forget(at: path)
    }

    /// The connection ended and the server ran them: what they write, in order, and nothing is
    /// registered any more.
    mutating func takeWrites() -> [(path: Path, node: Node)] {
        defer { self = LocalOnDisconnect() }
        return tree.overwrites()
    }

    /// Each registration with the server's verdict on the writes it holds at and below its path.
    func report(from dryRun: OnDisconnectDryRun) -> OnDisconnectReport {
        let operations = registrations.map { registration in
            let held = dryRun.writes.filter { registration.path.contains(Path($0.path)) }
            let refused = held.first { !$0.runs }
            return OnDisconnectReport.Operation(
                path: registration.path.description, kind: registration.kind, registeredAt: registration.registeredAt,
                runs: held.isEmpty ? nil : refused == nil, reason: refused?.reason)
        }
        return OnDisconnectReport(
            operations: operations, runsAs: dryRun.runsAs,
            credentialExpiresAt: dryRun.expiresAt.map { UnixTime(secondsSince1970: $0) })
    }

    private mutating func forget(at path: Path) { registrations.removeAll { path.contains($0.path) } }
}

/// An onDisconnect operation this client registered and the server acknowledged.
struct OnDisconnectRegistration {
    /// Where.
    var path: Path
    /// A set, an update or a remove.
    var kind: OnDisconnectReport.Kind
    /// When the server acknowledged it.
    var registeredAt: UnixTime
}
