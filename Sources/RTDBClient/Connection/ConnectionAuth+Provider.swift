import RTDBCore

extension ConnectionAuth {
    /// Takes credentials from `provider` from now on (nil: back to the one set by hand, if any).
    ///
    /// On a live connection the provider's first credential is sent at once; the listens stay.
    func setProvider(_ provider: (any DatabaseTokenProvider)?) {
        state.provider = provider
        state.lastRefused = false
        state.refusedInARow = 0
        state.requests += 1
        guard provider != nil, let connection else { return }
        if connection.isReady {
            renew(forcing: false)
        } else {
            // An attempt already under way would restore the listens signed out: it starts
            // again, the provider asked first.
            connection.restartAttempt()
        }
    }

    /// Runs `open` for attempt `generation` once a provider's credential is set (at once without
    /// a provider).
    ///
    /// The credential comes first, as FirebaseDatabase asks Auth for a token before it opens the
    /// socket: the listens restored at the handshake are then made signed in. A provider that
    /// gives none has the attempt retried after the back-off.
    func prepare(attempt generation: Int, open: @escaping () -> Void) {
        guard state.provider != nil else { return open() }
        obtain(forcing: state.lastRefused) { [weak self] result in
            guard let self, let connection = self.connection, connection.isAttemptUnderWay(generation) else { return }
            switch result {
            case .success(let token):
                self.state.lastRefused = false
                self.set(token)
                open()
            case .failure(let error):
                connection.scheduleReconnect(reason: "could not get a credential: \(error)")
            }
        }
    }

    /// Asks the provider for a credential; `completion` runs on the queue, unless another request
    /// was made meanwhile (only the latest answer counts).
    private func obtain(forcing: Bool, completion: @escaping (Result<DatabaseToken, any Error>) -> Void) {
        guard let provider = state.provider, let engineQueue = connection?.engineQueue else { return }
        state.requests += 1
        let request = state.requests
        // The result crosses from the task to the queue; the closure stays on the queue.
        nonisolated(unsafe) let completion = completion
        Task {
            let result: Result<DatabaseToken, any Error>
            do {
                result = .success(try await provider.token(forcingRefresh: forcing))
            } catch {
                result = .failure(error)
            }
            engineQueue.async { [weak self] in
                guard let self, self.state.requests == request else { return }
                completion(result)
            }
        }
    }

    /// The server took `credential`: a provider's is renewed before it expires, on the live
    /// connection (a `gauth`/`auth` of the new one; the listens stay).
    func accepted(_ credential: DatabaseToken) {
        state.refusedInARow = 0
        guard state.provider != nil, let expiresAt = credential.expiresAt, let connection else { return }
        let left = expiresAt - (connection.clock() + connection.status.serverTimeOffset)
        // Five minutes ahead, or halfway for a short-lived credential.
        let wait = max(.zero, left - min(.seconds(300), left / 2))
        let current = connection.generation
        connection.after(wait) { [weak self] in
            guard let self, self.connection?.isReady(in: current) == true, self.state.credential == credential
            else { return }
            self.renew(forcing: false)
        }
    }

    /// The server refused the credential or said it expired: with a provider, a new one is asked
    /// for (twice in a row at most; then the writes stay paused until the next connection).
    func spent() {
        guard state.provider != nil else { return }
        state.lastRefused = true
        state.refusedInARow += 1
        guard state.refusedInARow <= 2, connection?.isReady == true else { return }
        renew(forcing: true)
    }

    /// Asks the provider for a credential and sends it on the live connection.
    private func renew(forcing: Bool) {
        guard let current = connection?.generation else { return }
        obtain(forcing: forcing) { [weak self] result in
            guard let self, let connection = self.connection, connection.isReady(in: current) else { return }
            switch result {
            case .success(let token):
                self.state.lastRefused = false
                if token != self.state.credential || forcing { self.set(token) }
            case .failure(let error):
                self.pausedReason = "could not get a new credential: \(error)"
                // Tried again a little later, while the connection lasts.
                connection.after(.seconds(10)) { [weak self] in
                    guard let self, self.connection?.isReady(in: current) == true else { return }
                    self.renew(forcing: forcing)
                }
            }
        }
    }
}
