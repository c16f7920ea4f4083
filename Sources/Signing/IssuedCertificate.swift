/// A leaf certificate issued by a `CertificateAuthority`, with its private key, all as PEM.
public struct IssuedCertificate: Sendable {
    /// The leaf certificate.
    public var certificatePEM: String
    /// The leaf's P-256 private key (PKCS#8).
    public var privateKeyPEM: String
    /// The leaf followed by the CA certificate, as a TLS server sends it.
    public var chainPEM: String

    /// Creates a value from its PEM parts.
    public init(certificatePEM: String, privateKeyPEM: String, chainPEM: String) {
        self.certificatePEM = certificatePEM
        self.privateKeyPEM = privateKeyPEM
        self.chainPEM = chainPEM
    }
}
