import RTDBCore

extension PersistentConnection {
    /// Takes credentials from `provider` from now on (nil: back to the one set by hand, if any).
    ///
    /// On a live connection the provider's first credential is sent at once; the listens stay.
    func setTokenProvider(_ provider: (any DatabaseTokenProvider)?) {
        auth.provider = provider
        auth.lastRefused = false
        auth.refusedInARow = 0
        auth.requests += 1
        guard provider != nil else { return }
        if isReady {
            renewToken(forcing: false)
        } else {
            // An attempt already under way would restore the listens signed out: it starts
            // again, the provider asked first.
            restartAttempt()
        }
    }

    /// Asks the provider for a credential; `completion` runs on the queue, unless another request
    /// was made meanwhile (only the latest answer counts).
    func obtainToken(forcing: Bool, completion: @escaping (Result<DatabaseToken, any Error>) -> Void) {
        guard let provider = auth.provider else { return }
        auth.requests += 1
        let request = auth.requests
        // The result crosses from the task to the queue; the closure stays on the queue.
        nonisolated(unsafe) let completion = completion
        let engineQueue = engineQueue
        Task {
            let result: Result<DatabaseToken, any Error>
            do {
                result = .success(try await provider.token(forcingRefresh: forcing))
            } catch {
                result = .failure(error)
            }
            engineQueue.async { [weak self] in
                guard let self, self.auth.requests == request else { return }
                completion(result)
            }
        }
    }

    /// The server took `credential`: a provider's is renewed before it expires, on the live
    /// connection (a `gauth`/`auth` of the new one; the listens stay).
    func credentialAccepted(_ credential: DatabaseToken) {
        auth.refusedInARow = 0
        guard auth.provider != nil, let expiresAt = credential.expiresAt else { return }
        let left = expiresAt - (clock() + status.serverTimeOffset)
        // Five minutes ahead, or halfway for a short-lived credential.
        let wait = max(.zero, left - min(.seconds(300), left / 2))
        let current = generation
        after(wait) { [weak self] in
            guard let self, self.generation == current, self.isReady, self.auth.credential == credential else { return }
            self.renewToken(forcing: false)
        }
    }

    /// The server refused the credential or said it expired: with a provider, a new one is asked
    /// for (twice in a row at most; then the writes stay paused until the next connection).
    func credentialSpent() {
        guard auth.provider != nil else { return }
        auth.lastRefused = true
        auth.refusedInARow += 1
        guard auth.refusedInARow <= 2, isReady else { return }
        renewToken(forcing: true)
    }

    /// Asks the provider for a credential and sends it on the live connection.
    private func renewToken(forcing: Bool) {
        let current = generation
        obtainToken(forcing: forcing) { [weak self] result in
            guard let self, self.generation == current, self.isReady else { return }
            switch result {
            case .success(let token):
                self.auth.lastRefused = false
                if token != self.auth.credential || forcing { self.setAuth(token) }
            case .failure(let error):
                self.writesPausedReason = "could not get a new credential: \(error)"
                // Tried again a little later, while the connection lasts.
                self.after(.seconds(10)) { [weak self] in
                    guard let self, self.generation == current, self.isReady else { return }
                    self.renewToken(forcing: forcing)
                }
            }
        }
    }
}
