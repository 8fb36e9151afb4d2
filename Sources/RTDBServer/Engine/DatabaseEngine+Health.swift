import RTDBCore

extension DatabaseEngine {
    /// Why this namespace's store takes no writes now, if it does not: its commits fail (a full or
    /// broken disk), since when and how many tries; nil once a commit works again.
    var storeProblem: String? {
        guard let (since, attempts) = durability.flusher.failure else { return nil }
        return "the disk refuses writes since \(since) (\(attempts) failed \(attempts == 1 ? "commit" : "commits"))"
    }
}
