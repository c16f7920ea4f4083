import COpenSSL

/// Message digests.
public enum Digest {
    /// The SHA-256 digest of `bytes` (32 bytes).
    public static func sha256(_ bytes: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        let ok = bytes.withUnsafeBytes { input in
            EVP_Digest(input.baseAddress, input.count, &out, &length, FetchedDigest.sha256.md, nil)
        }
        // EVP_Digest with a built-in digest only fails on allocation failure.
        precondition(ok == 1 && length == 32, "EVP_Digest(SHA-256) failed" + OpenSSLErrors.drain())
        return out
    }
}

/// SHA-256 fetched once from the default provider. Passing `EVP_sha256()` makes OpenSSL 3 look the
/// implementation up again on every sign/verify init; a pre-fetched `EVP_MD` skips that.
///
/// `@unchecked Sendable`: the `EVP_MD` is immutable and reference-counted by OpenSSL; never freed.
final class FetchedDigest: @unchecked Sendable {
    let md: OpaquePointer

    private init(_ name: String) {
        // Fall back to the legacy pointer if fetching fails (it still works, only slower).
        md = EVP_MD_fetch(nil, name, nil) ?? EVP_sha256()!
    }

    static let sha256 = FetchedDigest("SHA256")
}
