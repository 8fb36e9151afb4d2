import RTDBCore
import RTDBWire

extension Repo {
    /// Asks the server whether this connection's onDisconnect operations would run now.
    func onDisconnectReport(_ completion: @escaping @Sendable (Result<OnDisconnectReport, DatabaseError>) -> Void) {
        connection.onDisconnectDryRun { [self] status, data in
            let result: Result<OnDisconnectReport, DatabaseError>
            if status.isOK {
                do throws(WireError) {
                    result = .success(onDisconnect.report(from: try OnDisconnectDryRun(json: data)))
                } catch {
                    result = .failure(DatabaseError(code: error.status, message: error.message))
                }
            } else {
                result = .failure(DatabaseError(status: status, data: data))
            }
            callbackQueue.async { completion(result) }
        }
    }

}
