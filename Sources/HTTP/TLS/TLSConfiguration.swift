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
    /// Whether ALPN may settle on `http/1.1`; false offers only `h2` (as APNs does). A client that offers
    /// only `http/1.1` then gets no ALPN answer, and the connection is HTTP/1.1 or HTTP/2 by what it sends.
    public var offersHTTP1: Bool

    public init(certificateChain: PEMSource, privateKey: PEMSource, offersHTTP1: Bool = true) {
        self.certificateChain = certificateChain
        self.privateKey = privateKey
        self.offersHTTP1 = offersHTTP1
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
