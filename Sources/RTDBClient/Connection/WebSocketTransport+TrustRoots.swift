import NIOSSL

extension WebSocketTransport {
    /// A transport that trusts the certificates in the PEM file at `path` besides the system's
    /// roots: a corporate proxy's CA, or a test CA.
    ///
    /// - Throws: ``TransportSetupError`` naming the file when it holds no certificate.
    public static func trusting(certificatesAt path: String) throws -> WebSocketTransport {
        let certificates: [NIOSSLCertificate]
        do {
            certificates = try NIOSSLCertificate.fromPEMFile(path)
        } catch {
            throw TransportSetupError("\(path) holds no PEM certificate that can be read (\(error))")
        }
        guard !certificates.isEmpty else { throw TransportSetupError("\(path) holds no PEM certificate") }
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.additionalTrustRoots = [.certificates(certificates)]
        return WebSocketTransport(tlsConfiguration: tls)
    }
}

/// Why a transport could not be set up, naming the file or setting.
public struct TransportSetupError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public var description: String

    /// Makes an error.
    public init(_ description: String) {
        self.description = description
    }
}
