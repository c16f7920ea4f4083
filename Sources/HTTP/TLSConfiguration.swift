/// The certificate and key a TLS listener presents.
public struct TLSConfiguration: Sendable, Equatable {
    /// Where PEM text comes from: given inline or read from a file at `start()`.
    public enum PEMSource: Sendable, Equatable {
        case pem(String)
        case file(String)
    }

    /// The leaf certificate first, then any intermediates.
    public var certificateChain: PEMSource
    /// The private key of the leaf certificate.
    public var privateKey: PEMSource

    public init(certificateChain: PEMSource, privateKey: PEMSource) {
        self.certificateChain = certificateChain
        self.privateKey = privateKey
    }

    /// TLS from PEM strings.
    public static func pem(certificateChain: String, privateKey: String) -> TLSConfiguration {
        TLSConfiguration(certificateChain: .pem(certificateChain), privateKey: .pem(privateKey))
    }

    /// TLS from PEM files.
    public static func files(certificateChain: String, privateKey: String) -> TLSConfiguration {
        TLSConfiguration(certificateChain: .file(certificateChain), privateKey: .file(privateKey))
    }
}
