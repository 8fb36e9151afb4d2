import RTDBCore
import RTDBWire

/// The app's writes registered with the server to run when this connection ends: sent, known
/// locally once acknowledged, shown locally when the connection drops (as the server will apply
/// them), and reported as the server judges them.
extension UserWrites {
    /// Registers a set of `json` (export format) at `path`, validated first.
    func onDisconnectSet(_ path: Path, json: JSONValue, completion: Completion?) {
        let node: Node
        do throws(ValidationError) {
            node = try WriteInput.node(json, at: path)
        } catch {
            return fail(completion, error)
        }
        host.sendOnDisconnect(.onDisconnectPut(path: path, data: json)) { [self] status, data in
            if status.isOK { onDisconnect.acknowledgedSet(node, at: path, at: host.clock()) }
            host.complete(completion, error: status.isOK ? nil : DatabaseError(status: status, data: data))
        }
    }

    /// Registers an update of `children` (relative paths and export-format JSON), validated first.
    func onDisconnectUpdate(_ path: Path, children: [(String, JSONValue)], completion: Completion?) {
        let nodes: [(path: Path, node: Node)]
        do throws(ValidationError) {
            nodes = try WriteInput.updateNodes(children, at: path)
        } catch {
            return fail(completion, error)
        }
        var data = JSONValue.Members()
        for (key, json) in children { data[CodeUnitString(key)] = json }
        host.sendOnDisconnect(.onDisconnectMerge(path: path, data: data)) { [self] status, data in
            if status.isOK { onDisconnect.acknowledgedUpdate(nodes, at: path, at: host.clock()) }
            host.complete(completion, error: status.isOK ? nil : DatabaseError(status: status, data: data))
        }
    }

    /// Cancels what was registered at and below `path`.
    func onDisconnectCancel(_ path: Path, completion: Completion?) {
        host.sendOnDisconnect(.onDisconnectCancel(path: path)) { [self] status, data in
            if status.isOK { onDisconnect.acknowledgedCancel(at: path) }
            host.complete(completion, error: status.isOK ? nil : DatabaseError(status: status, data: data))
        }
    }

    /// The connection dropped: show the registered writes locally, as the server will apply them
    /// (docs/client-engine.md#ondisconnect-locally).
    func runOnDisconnectLocally() {
        let now = host.serverTime
        var events: [SyncEvent] = []
        for (path, node) in onDisconnect.takeWrites() {
            let existing = host.serverTree.calcCompleteEventCache(path)
            events += host.serverTree.applyServerOverwrite(
                path, node.resolvingServerValues(existing: existing, now: now))
        }
        host.raise(events)
    }

    /// Asks the server whether the registered writes would run now, each judged by its rules.
    func onDisconnectReport(_ completion: @escaping @Sendable (Result<OnDisconnectReport, DatabaseError>) -> Void) {
        host.onDisconnectDryRun { [self] status, data in
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
            host.callbackQueue.async { completion(result) }
        }
    }
}
