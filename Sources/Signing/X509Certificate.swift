import COpenSSL

/// An owned OpenSSL `X509`, freed in deinit; internal to certificate building.
final class X509Certificate {
    let x509: OpaquePointer

    init(owning x509: OpaquePointer) { self.x509 = x509 }

    deinit { X509_free(x509) }

    /// A new, empty v3 certificate.
    static func empty() throws(SigningError) -> X509Certificate {
        guard let x = X509_new() else { throw SigningError.openssl("X509_new") }
        let cert = X509Certificate(owning: x)
        guard X509_set_version(x, 2) == 1 else { throw SigningError.openssl("X509_set_version") }
        return cert
    }

    /// Reads the first certificate in `pem`.
    static func parse(pem: String) throws(SigningError) -> X509Certificate {
        let x = try MemoryBIO.reading(pem) { bio throws(SigningError) -> OpaquePointer in
            guard let x = PEM_read_bio_X509(bio, nil, nil, nil) else {
                throw SigningError.openssl("reading PEM certificate (PEM_read_bio_X509)", code: .malformed)
            }
            return x
        }
        return X509Certificate(owning: x)
    }

    func pem() throws(SigningError) -> String {
        try MemoryBIO.writing("PEM_write_bio_X509") { bio in PEM_write_bio_X509(bio, x509) }
    }

    /// Sets a random positive 127-bit serial number.
    func setRandomSerial() throws(SigningError) {
        var bytes = SecureRandom.bytes(16)
        bytes[0] = bytes[0] & 0x7F | 0x01
        guard let bn = BN_bin2bn(bytes, Int32(bytes.count), nil) else { throw SigningError.openssl("BN_bin2bn") }
        defer { BN_free(bn) }
        guard BN_to_ASN1_INTEGER(bn, X509_get_serialNumber(x509)) != nil else {
            throw SigningError.openssl("BN_to_ASN1_INTEGER")
        }
    }

    /// Sets the validity from `secondsBefore` ago until `secondsAfter` from now.
    func setValidity(secondsBefore: Int, secondsAfter: Int) throws(SigningError) {
        guard X509_gmtime_adj(X509_getm_notBefore(x509), -secondsBefore) != nil,
            X509_gmtime_adj(X509_getm_notAfter(x509), secondsAfter) != nil
        else { throw SigningError.openssl("X509_gmtime_adj") }
    }

    /// Sets the subject name to `CN=commonName`.
    func setSubject(commonName: String) throws(SigningError) {
        guard let name = X509_get_subject_name(x509),
            X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_UTF8, commonName, -1, -1, 0) == 1
        else { throw SigningError.openssl("X509_NAME_add_entry_by_txt(CN=\(commonName))") }
    }

    func setIssuer(from issuer: X509Certificate) throws(SigningError) {
        guard X509_set_issuer_name(x509, X509_get_subject_name(issuer.x509)) == 1 else {
            throw SigningError.openssl("X509_set_issuer_name")
        }
    }

    func setPublicKey(_ key: PrivateKey) throws(SigningError) {
        guard X509_set_pubkey(x509, key.pkey) == 1 else { throw SigningError.openssl("X509_set_pubkey") }
    }

    /// Adds an extension written in OpenSSL's config syntax (e.g. `"critical,CA:TRUE"`), with `issuer` as
    /// the issuing certificate for key identifiers (the certificate itself when self-signed).
    func addExtension(_ nid: Int32, _ value: String, issuer: X509Certificate?) throws(SigningError) {
        var ctx = X509V3_CTX()
        X509V3_set_ctx(&ctx, issuer?.x509 ?? x509, x509, nil, nil, 0)
        guard let ext = X509V3_EXT_conf_nid(nil, &ctx, nid, value) else {
            throw SigningError.openssl("X509V3_EXT_conf_nid(\(String(cString: OBJ_nid2sn(nid))), \"\(value)\")")
        }
        defer { X509_EXTENSION_free(ext) }
        guard X509_add_ext(x509, ext, -1) == 1 else { throw SigningError.openssl("X509_add_ext") }
    }

    func sign(with key: PrivateKey) throws(SigningError) {
        guard X509_sign(x509, key.pkey, EVP_sha256()) > 0 else { throw SigningError.openssl("X509_sign") }
    }
}
