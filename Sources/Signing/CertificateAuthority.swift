import COpenSSL
import Synchronization

/// A private certificate authority that issues TLS server certificates for the mocks, so that a backend
/// can trust ringcheck by trusting one CA certificate.
///
/// `@unchecked Sendable`: the CA certificate and key are immutable after init; `issue` reads them under
/// `lock` (OpenSSL caches parsed extensions inside `X509` objects lazily, so reads are serialised).
public final class CertificateAuthority: @unchecked Sendable {
    private let certificate: X509Certificate
    private let key: PrivateKey
    private let lock = Mutex(())

    /// The CA certificate as PEM: what a backend must trust.
    public let certificatePEM: String

    private init(certificate: X509Certificate, key: PrivateKey) throws(SigningError) {
        self.certificate = certificate
        self.key = key
        self.certificatePEM = try certificate.pem()
    }

    /// A new self-signed P-256 CA valid for `validityDays`.
    public static func generate(commonName: String = "ringcheck test CA", validityDays: Int = 30) throws(SigningError)
        -> CertificateAuthority
    {
        let key = try PrivateKey.generateP256()
        let cert = try X509Certificate.empty()
        try cert.setRandomSerial()
        try cert.setValidity(secondsBefore: 3600, secondsAfter: validityDays * 86400)
        try cert.setSubject(commonName: commonName)
        try cert.setIssuer(from: cert)
        try cert.setPublicKey(key)
        try cert.addExtension(NID_basic_constraints, "critical,CA:TRUE", issuer: nil)
        try cert.addExtension(NID_key_usage, "critical,keyCertSign,cRLSign,digitalSignature", issuer: nil)
        try cert.addExtension(NID_subject_key_identifier, "hash", issuer: nil)
        try cert.sign(with: key)
        return try CertificateAuthority(certificate: cert, key: key)
    }

    /// Loads `ca.pem` and `ca.key` from `directory`, or creates them (the key with mode 0600, the CA valid
    /// for ten years) when both are absent, so the CA a backend trusts survives restarts.
    public static func persistent(in directory: String) throws(SigningError) -> CertificateAuthority {
        let certPath = directory + "/ca.pem"
        let keyPath = directory + "/ca.key"
        let certText = try FileAccess.readFile(certPath)
        let keyText = try FileAccess.readFile(keyPath)
        switch (certText, keyText) {
        case (let certText?, let keyText?):
            return try load(certificatePEM: certText, privateKeyPEM: keyText, source: directory)
        case (nil, nil):
            try FileAccess.makeDirectory(directory)
            let ca = try generate(validityDays: 3650)
            try FileAccess.writeFile(try ca.key.pkcs8PEM(), to: keyPath, mode: 0o600)
            try FileAccess.writeFile(ca.certificatePEM, to: certPath, mode: 0o644)
            return ca
        default:
            let missing = certText == nil ? certPath : keyPath
            throw SigningError(
                .badKey, "\(missing) is missing while its pair exists; restore it or delete both to make a new CA")
        }
    }

    /// A CA from PEM text; `source` names where it came from in error messages.
    public static func load(certificatePEM: String, privateKeyPEM: String, source: String = "PEM")
        throws(SigningError) -> CertificateAuthority
    {
        let cert: X509Certificate
        let key: PrivateKey
        do {
            cert = try X509Certificate.parse(pem: certificatePEM)
            key = try PrivateKey(pem: privateKeyPEM)
        } catch {
            throw SigningError(error.code, "CA in \(source): \(error.message)")
        }
        guard X509_check_private_key(cert.x509, key.pkey) == 1 else {
            OpenSSLErrors.clear()
            throw SigningError(.badKey, "CA in \(source): the private key does not match the certificate")
        }
        guard X509_cmp_time(X509_getm_notAfter(cert.x509), nil) > 0 else {
            throw SigningError(.expired, "CA in \(source) has expired; delete its files to make a new one")
        }
        return try CertificateAuthority(certificate: cert, key: key)
    }

    /// Issues a TLS server certificate: a fresh P-256 key, subjectAltName with each DNS name and IP address
    /// (IPv4 or IPv6), extendedKeyUsage serverAuth, a random serial, and notBefore an hour in the past to
    /// absorb clock skew. Safe to call from many threads.
    public func issue(dnsNames: [String], ipAddresses: [String], validityDays: Int = 7) throws(SigningError)
        -> IssuedCertificate
    {
        guard !dnsNames.isEmpty || !ipAddresses.isEmpty else {
            throw SigningError(.badClaim, "a certificate needs at least one DNS name or IP address")
        }
        for name in dnsNames where name.isEmpty || name.contains(where: { $0 == "," || $0 == " " || $0 == ":" }) {
            throw SigningError(.badClaim, "\"\(name)\" is not a valid DNS name for a certificate")
        }
        for ip in ipAddresses {
            guard let parsed = a2i_IPADDRESS(ip) else {
                OpenSSLErrors.clear()
                throw SigningError(.badClaim, "\"\(ip)\" is not an IPv4 or IPv6 address")
            }
            ASN1_OCTET_STRING_free(parsed)
        }
        let san = (dnsNames.map { "DNS:" + $0 } + ipAddresses.map { "IP:" + $0 }).joined(separator: ",")
        let leafKey = try PrivateKey.generateP256()
        let leaf = try X509Certificate.empty()
        try leaf.setRandomSerial()
        try leaf.setValidity(secondsBefore: 3600, secondsAfter: validityDays * 86400)
        try leaf.setSubject(commonName: dnsNames.first ?? ipAddresses[0])
        try leaf.setPublicKey(leafKey)
        try lock.withLock { _ throws(SigningError) in
            try leaf.setIssuer(from: certificate)
            try leaf.addExtension(NID_basic_constraints, "critical,CA:FALSE", issuer: certificate)
            try leaf.addExtension(NID_key_usage, "critical,digitalSignature", issuer: certificate)
            try leaf.addExtension(NID_ext_key_usage, "serverAuth", issuer: certificate)
            try leaf.addExtension(NID_subject_alt_name, san, issuer: certificate)
            try leaf.addExtension(NID_subject_key_identifier, "hash", issuer: certificate)
            try leaf.addExtension(NID_authority_key_identifier, "keyid:always", issuer: certificate)
            try leaf.sign(with: key)
        }
        let leafPEM = try leaf.pem()
        return IssuedCertificate(
            certificatePEM: leafPEM, privateKeyPEM: try leafKey.pkcs8PEM(), chainPEM: leafPEM + certificatePEM)
    }
}
