import COpenSSL

/// A private key for signing: P-256 (ES256) or RSA (RS256).
///
/// `@unchecked Sendable`: the `EVP_PKEY` is never mutated after init, and OpenSSL 3 allows
/// concurrent signing with one key as long as each call uses its own `EVP_MD_CTX` (which `sign` does).
public final class PrivateKey: @unchecked Sendable {
    /// The key types ringcheck uses.
    public enum Kind: Sendable {
        /// NIST P-256 (prime256v1), for ES256.
        case p256
        /// RSA, for RS256.
        case rsa
    }

    /// The key type.
    public let kind: Kind
    /// The owned key; freed in deinit.
    let pkey: OpaquePointer

    /// Takes ownership of `pkey` (freeing it if the type is unsupported).
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

    // MARK: Generating

    /// A fresh random P-256 key.
    public static func generateP256() throws(SigningError) -> PrivateKey {
        try generate("P-256") { ctx in rc_EVP_PKEY_CTX_set_ec_paramgen_curve_nid(ctx, NID_X9_62_prime256v1) }
    }

    /// A fresh random RSA key of `bits` bits.
    public static func generateRSA(bits: Int = 2048) throws(SigningError) -> PrivateKey {
        guard bits >= 1024 && bits <= 16384 else { throw SigningError(.badKey, "RSA key size \(bits) is out of range") }
        return try generate("RSA") { ctx in rc_EVP_PKEY_CTX_set_rsa_keygen_bits(ctx, Int32(bits)) }
    }

    private static func generate(_ name: String, configure: (OpaquePointer) -> Int32) throws(SigningError)
        -> PrivateKey
    {
        let type = name == "RSA" ? EVP_PKEY_RSA : EVP_PKEY_EC
        guard let ctx = EVP_PKEY_CTX_new_id(type, nil) else {
            throw SigningError.openssl("EVP_PKEY_CTX_new_id(\(name))")
        }
        defer { EVP_PKEY_CTX_free(ctx) }
        guard EVP_PKEY_keygen_init(ctx) == 1 else { throw SigningError.openssl("EVP_PKEY_keygen_init(\(name))") }
        guard configure(ctx) == 1 else { throw SigningError.openssl("configuring \(name) key generation") }
        var key: OpaquePointer? = nil
        guard EVP_PKEY_keygen(ctx, &key) == 1, let key else { throw SigningError.openssl("EVP_PKEY_keygen(\(name))") }
        return try PrivateKey(owning: key)
    }

    // MARK: PEM

    /// Reads a PEM private key: PKCS#8 `PRIVATE KEY`, SEC1 `EC PRIVATE KEY` or PKCS#1 `RSA PRIVATE KEY`
    /// (unencrypted). The key must be P-256 or RSA.
    public convenience init(pem: String) throws(SigningError) {
        guard pem.contains("-----BEGIN") else {
            throw SigningError(.malformed, "private key is not PEM (no \"-----BEGIN\" line)")
        }
        let key = try MemoryBIO.reading(pem) { bio throws(SigningError) -> OpaquePointer in
            // A passphrase callback that returns no passphrase makes encrypted keys fail instead of prompting.
            guard let key = PEM_read_bio_PrivateKey(bio, nil, { _, _, _, _ in 0 }, nil) else {
                throw SigningError.openssl("reading PEM private key (PEM_read_bio_PrivateKey)", code: .badKey)
            }
            return key
        }
        try self.init(owning: key)
    }

    /// The key as PKCS#8 PEM (`-----BEGIN PRIVATE KEY-----`).
    public func pkcs8PEM() throws(SigningError) -> String {
        try MemoryBIO.writing("PEM_write_bio_PrivateKey") { bio in
            PEM_write_bio_PrivateKey(bio, pkey, nil, nil, 0, nil, nil)
        }
    }

    // MARK: Public key and signing

    /// The matching public key (a separate `EVP_PKEY` holding only the public part).
    public func publicKey() throws(SigningError) -> PublicKey {
        let der = try DER.encode("i2d_PUBKEY") { i2d_PUBKEY(pkey, $0) }
        return try PublicKey(spkiDER: der)
    }

    /// Signs `message` with SHA-256: ES256 gives raw `r‖s` (64 bytes), RS256 gives PKCS#1 v1.5.
    public func sign(_ message: [UInt8]) throws(SigningError) -> [UInt8] {
        guard let ctx = EVP_MD_CTX_new() else { throw SigningError.openssl("EVP_MD_CTX_new") }
        defer { EVP_MD_CTX_free(ctx) }
        guard EVP_DigestSignInit(ctx, nil, FetchedDigest.sha256.md, nil, pkey) == 1 else {
            throw SigningError.openssl("EVP_DigestSignInit")
        }
        // The largest signature here is RSA-16384 (2048 bytes); ECDSA DER is at most 72.
        var out = [UInt8](repeating: 0, count: 2048)
        var length = out.count
        let ok = message.withUnsafeBytes { m in
            EVP_DigestSign(ctx, &out, &length, m.baseAddress?.assumingMemoryBound(to: UInt8.self), m.count)
        }
        guard ok == 1 else { throw SigningError.openssl("EVP_DigestSign") }
        let signature = Array(out.prefix(length))
        switch kind {
        case .rsa: return signature
        case .p256: return try ECDSASignature.rawFromDER(signature)
        }
    }
}

/// Classifies an `EVP_PKEY` as one of the supported kinds.
enum KeyKind {
    static func of(_ pkey: OpaquePointer) throws(SigningError) -> PrivateKey.Kind {
        switch EVP_PKEY_get_base_id(pkey) {
        case EVP_PKEY_RSA:
            return .rsa
        case EVP_PKEY_EC:
            var name = [CChar](repeating: 0, count: 64)
            var length = 0
            guard EVP_PKEY_get_group_name(pkey, &name, name.count, &length) == 1 else {
                throw SigningError.openssl("EVP_PKEY_get_group_name", code: .badKey)
            }
            let curve = String(decoding: name.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            guard curve == "prime256v1" || curve == "P-256" else {
                throw SigningError(.badKey, "EC key on curve \(curve) is not supported (only P-256)")
            }
            return .p256
        case let other:
            throw SigningError(
                .badKey, "key type \(String(cString: OBJ_nid2sn(other))) is not supported (only P-256 and RSA)")
        }
    }
}
