import COpenSSL

/// A public key for verifying: P-256 (ES256) or RSA (RS256).
///
/// `@unchecked Sendable`: the `EVP_PKEY` is never mutated after init, and OpenSSL 3 allows concurrent
/// verification with one key as long as each call uses its own `EVP_MD_CTX` (which `verify` does).
public final class PublicKey: @unchecked Sendable {
    /// The key type.
    public let kind: PrivateKey.Kind
    /// The owned key; freed in deinit.
    let pkey: OpaquePointer

    init(owning pkey: OpaquePointer) throws(SigningError) {
        do {
            self.kind = try KeyKind.of(pkey)
        } catch {
            EVP_PKEY_free(pkey)
            throw error
        }
        self.pkey = pkey
    }

    deinit { EVP_PKEY_free(pkey) }

    /// Reads a PEM `PUBLIC KEY` (X.509 SubjectPublicKeyInfo).
    public convenience init(pem: String) throws(SigningError) {
        guard pem.contains("-----BEGIN") else {
            throw SigningError(.malformed, "public key is not PEM (no \"-----BEGIN\" line)")
        }
        let key = try MemoryBIO.reading(pem) { bio throws(SigningError) -> OpaquePointer in
            guard let key = PEM_read_bio_PUBKEY(bio, nil, nil, nil) else {
                throw SigningError.openssl("reading PEM public key (PEM_read_bio_PUBKEY)", code: .badKey)
            }
            return key
        }
        try self.init(owning: key)
    }

    /// Reads a DER SubjectPublicKeyInfo.
    public convenience init(spkiDER: [UInt8]) throws(SigningError) {
        let key: OpaquePointer? = spkiDER.withUnsafeBufferPointer { buffer in
            var p: UnsafePointer<UInt8>? = buffer.baseAddress
            return d2i_PUBKEY(nil, &p, buffer.count)
        }
        guard let key else { throw SigningError.openssl("reading DER public key (d2i_PUBKEY)", code: .badKey) }
        try self.init(owning: key)
    }

    /// A P-256 public key from its affine coordinates (32 bytes each, big-endian), as in a JWK's `x` and `y`.
    public convenience init(p256X x: [UInt8], y: [UInt8]) throws(SigningError) {
        guard x.count == 32, y.count == 32 else {
            throw SigningError(.badKey, "P-256 coordinates must be 32 bytes each (got \(x.count) and \(y.count))")
        }
        // SubjectPublicKeyInfo { id-ecPublicKey, prime256v1 } followed by the uncompressed point 04‖x‖y.
        let prefix: [UInt8] = [
            0x30, 0x59, 0x30, 0x13, 0x06, 0x07, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01, 0x06, 0x08, 0x2A, 0x86,
            0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07, 0x03, 0x42, 0x00, 0x04,
        ]
        try self.init(spkiDER: prefix + x + y)
    }

    /// The key as PEM `PUBLIC KEY`.
    public func pem() throws(SigningError) -> String {
        try MemoryBIO.writing("PEM_write_bio_PUBKEY") { bio in PEM_write_bio_PUBKEY(bio, pkey) }
    }

    /// The key as DER SubjectPublicKeyInfo.
    public func spkiDER() throws(SigningError) -> [UInt8] {
        try DER.encode("i2d_PUBKEY") { i2d_PUBKEY(pkey, $0) }
    }

    /// True when `signature` is a valid SHA-256 signature of `message` under this key: raw `r‖s`
    /// (64 bytes) for P-256, PKCS#1 v1.5 for RSA. Anything malformed is simply `false`.
    public func verify(signature: [UInt8], message: [UInt8]) -> Bool {
        let encoded: [UInt8]
        switch kind {
        case .rsa:
            encoded = signature
        case .p256:
            guard signature.count == 64, let der = ECDSASignature.derFromRaw(signature) else { return false }
            encoded = der
        }
        guard let ctx = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(ctx) }
        guard EVP_DigestVerifyInit(ctx, nil, FetchedDigest.sha256.md, nil, pkey) == 1 else {
            OpenSSLErrors.clear()
            return false
        }
        let result = encoded.withUnsafeBufferPointer { sig in
            message.withUnsafeBytes { m in
                EVP_DigestVerify(
                    ctx, sig.baseAddress, sig.count, m.baseAddress?.assumingMemoryBound(to: UInt8.self), m.count)
            }
        }
        // A failed verification leaves errors queued; they must not leak into a later, unrelated message.
        if result != 1 { OpenSSLErrors.clear() }
        return result == 1
    }
}
