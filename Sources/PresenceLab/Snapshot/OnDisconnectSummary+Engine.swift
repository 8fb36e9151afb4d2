import RTDBClient

extension OnDisconnectSummary {
    /// The engine's report in the snapshot's terms.
    init(_ report: OnDisconnectReport) {
        self.init(
            operations: report.operations.map { operation in
                let verdict: Verdict =
                    switch operation.runs {
                    case true?: .runs
                    case false?: .refused(operation.reason ?? "refused")
                    case nil: .notHeld
                    }
                return Operation(
                    path: operation.path, kind: operation.kind.rawValue, registeredAt: operation.registeredAt,
                    verdict: verdict)
            }, runsAs: report.runsAs, credentialExpiresAt: report.credentialExpiresAt)
    }
}
