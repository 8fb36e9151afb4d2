import RTDBCore

extension Repo {
    /// Reads `spec` once, for `getData`.
    ///
    /// From complete local data, else from the server, else (offline) from the disk cache when it
    /// holds the query whole, as the SDKs do. `completion` runs on the callback queue with an
    /// error or the node.
    func getValue(_ spec: QuerySpec, completion: @escaping @Sendable (DatabaseError?, Node) -> Void) {
        schedule { [self] in
            if let cached = serverTree.completeServerCache(spec.path) {
                let node = spec.loadsAllData ? cached : spec.params.filter(cached)
                callbackQueue.async { completion(nil, node) }
                return
            }
            connection.get(spec) { [self] status, data in
                var node = (try? Node(json: data, at: spec.path)) ?? .empty
                var error = status.isOK ? nil : DatabaseError(status: status, data: data)
                if status == .clientOffline {
                    if let cached = disk?.cache.serverCache(for: spec), cached.complete {
                        (node, error) = (spec.loadsAllData ? cached.node : spec.params.filter(cached.node), nil)
                    } else {
                        error = DatabaseError(
                            code: .clientOffline,
                            message:
                                "unable to get the latest value at \(spec.path): the client is offline, with no listener and no disk cache entry for it"
                        )
                    }
                }
                let (failure, result) = (error, node)
                callbackQueue.async { completion(failure, result) }
            }
        }
    }
}
