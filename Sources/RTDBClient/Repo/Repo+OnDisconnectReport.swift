import RTDBCore
import RTDBWire

/// An onDisconnect operation this client registered and the server acknowledged.
struct OnDisconnectRegistration {
    var path: Path
    var kind: OnDisconnectReport.Kind
    var registeredAt: UnixTime
}

extension Repo {
    /// Notes an acknowledged onDisconnect operation: a set or remove replaces what was registered
    /// at and below its path, an update adds to it.
    func noteOnDisconnect(_ kind: OnDisconnectReport.Kind, at path: Path) {
        if kind != .update { forgetOnDisconnectRegistrations(at: path) }
        onDisconnect.registrations.append(OnDisconnectRegistration(path: path, kind: kind, registeredAt: clock()))
    }

    /// Notes an acknowledged cancel: what was registered at and below its path is gone.
    func forgetOnDisconnectRegistrations(at path: Path) {
        onDisconnect.registrations.removeAll { path.contains($0.path) }
    }

    /// Forgets the registrations: the connection they belonged to ended, and the server ran them.
    func forgetOnDisconnectRegistrations() { onDisconnect.registrations = [] }

    /// Asks the server whether this connection's onDisconnect operations would run now.
    func onDisconnectReport(_ completion: @escaping @Sendable (Result<OnDisconnectReport, DatabaseError>) -> Void) {
        connection.onDisconnectDryRun { [self] status, data in
            let result: Result<OnDisconnectReport, DatabaseError>
            if status.isOK {
                do throws(WireError) {
                    result = .success(report(from: try OnDisconnectDryRun(json: data)))
                } catch {
                    result = .failure(DatabaseError(code: error.status, message: error.message))
                }
            } else {
                result = .failure(DatabaseError(status: status, data: data))
            }
            callbackQueue.async { completion(result) }
        }
    }

    /// Each registration with the server's verdict on the writes it holds at and below its path.
    private func report(from dryRun: OnDisconnectDryRun) -> OnDisconnectReport {
        let operations = onDisconnect.registrations.map { registration in
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
}
