import RTDBCore

extension WireStatus {
    /// The status a server answers a key, path or value it refuses with (and the code a client
    /// fails the same write with locally): the one home of that mapping.
    public init(_ error: ValidationError) {
        switch error {
        case .stringTooLong: self = .tooBig
        case .readOnlyPath: self = .permissionDenied
        case .emptyKey, .keyTooLong, .invalidKeyCharacter, .invalidPathCharacter, .tooDeep, .overlappingUpdatePaths:
            self = .invalidPath
        case .nonFiniteNumber, .nonFiniteResult, .invalidPriority, .valueWithChildren, .unknownServerValue,
            .invalidValue:
            self = .invalidData
        }
    }
}
