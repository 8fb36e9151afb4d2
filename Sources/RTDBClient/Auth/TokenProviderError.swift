/// Why a credential could not be had, in words that name the problem and never the credential.
public struct TokenProviderError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong.
    public var description: String

    /// Makes an error.
    public init(_ description: String) {
        self.description = description
    }
}
