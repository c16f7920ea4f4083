import COpenSSL

/// Conversion between JOSE's raw `r‖s` ECDSA signatures and OpenSSL's DER `ECDSA-Sig-Value`.
public enum ECDSASignature {
    /// The DER encoding of a raw P-256 `r‖s` signature (64 bytes), or nil when it is not 64 bytes.
    public static func derFromRaw(_ raw: [UInt8]) -> [UInt8]? {
        guard raw.count == 64 else { return nil }
        guard let sig = ECDSA_SIG_new() else { return nil }
        defer { ECDSA_SIG_free(sig) }
        let r = raw.withUnsafeBufferPointer { BN_bin2bn($0.baseAddress, 32, nil) }
        let s = raw.withUnsafeBufferPointer { BN_bin2bn($0.baseAddress! + 32, 32, nil) }
        guard let r, let s else {
            BN_free(r)
            BN_free(s)
            return nil
        }
        // ECDSA_SIG_set0 takes ownership of r and s.
        guard ECDSA_SIG_set0(sig, r, s) == 1 else {
            BN_free(r)
            BN_free(s)
            return nil
        }
        return try? DER.encode("i2d_ECDSA_SIG") { i2d_ECDSA_SIG(sig, $0) }
    }

    /// The raw `r‖s` form (64 bytes) of a DER P-256 signature.
    public static func rawFromDER(_ der: [UInt8]) throws(SigningError) -> [UInt8] {
        let sig: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            var p: UnsafePointer<UInt8>? = buffer.baseAddress
            return d2i_ECDSA_SIG(nil, &p, buffer.count)
        }
        guard let sig else { throw SigningError.openssl("d2i_ECDSA_SIG", code: .malformed) }
        defer { ECDSA_SIG_free(sig) }
        var r: OpaquePointer? = nil
        var s: OpaquePointer? = nil
        ECDSA_SIG_get0(sig, &r, &s)
        var out = [UInt8](repeating: 0, count: 64)
        let ok = out.withUnsafeMutableBufferPointer { buffer in
            BN_bn2binpad(r, buffer.baseAddress, 32) == 32 && BN_bn2binpad(s, buffer.baseAddress! + 32, 32) == 32
        }
        guard ok else { throw SigningError(.malformed, "ECDSA signature values do not fit in 32 bytes") }
        return out
    }
}
