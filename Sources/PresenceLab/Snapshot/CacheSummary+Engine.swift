import RTDBClient

extension CacheSummary {
    /// The engine's cache report in the snapshot's terms.
    init(_ report: CacheReport) {
        // Largest first; equal sizes by path, by UTF-16 code units as keys are ordered.
        let sizes = report.bytesByTopLevelPath.sorted {
            $0.value != $1.value ? $0.value > $1.value : Array($0.key.utf16).lexicographicallyPrecedes($1.key.utf16)
        }
        self.init(
            totalBytes: report.totalBytes, limitBytes: report.limitBytes,
            bytesByPath: sizes.map { PathSize(path: $0.key, bytes: $0.value) },
            queries: report.trackedQueries.map {
                Query(
                    path: $0.path, query: $0.query, complete: $0.complete, active: $0.active,
                    keepSynced: $0.keepSynced, lastUse: $0.lastUse)
            }, nextPrune: report.nextPrune, pruneDue: report.pruneDue,
            storeFailing: report.storeFailure.map { ($0.since, $0.reason) })
    }
}
