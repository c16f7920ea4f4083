import Foundation

/// A CA and a leaf certificate for `localhost`/`127.0.0.1` made with the `openssl` command,
/// independent of ringcheck's own Signing module, for testing TLS servers and clients.
public struct OpenSSLTestCertificates: Sendable {
    public var caFile: String
    public var certFile: String
    public var keyFile: String

    /// `make(in:names:ips:)` off the cooperative pool (several openssl runs): use it from async tests.
    public static func makeAsync(
        in directory: TemporaryDirectory, names: [String] = ["localhost"], ips: [String] = ["127.0.0.1"]
    ) async throws -> OpenSSLTestCertificates {
        try await offPool { try make(in: directory, names: names, ips: ips) }
    }

    /// Creates the files in `directory`, waiting for openssl on the calling thread (from async tests use
    /// `makeAsync`). Throws when `openssl` fails.
    public static func make(
        in directory: TemporaryDirectory, names: [String] = ["localhost"], ips: [String] = ["127.0.0.1"]
    )
        throws -> OpenSSLTestCertificates
    {
        let d = directory.path
        let san = (names.map { "DNS:\($0)" } + ips.map { "IP:\($0)" }).joined(separator: ",")
        let script = """
            set -e
            cd '\(d)'
            openssl ecparam -name prime256v1 -genkey -noout -out ca.key 2>/dev/null
            openssl req -x509 -new -key ca.key -subj '/CN=ringcheck test CA' -days 2 -out ca.pem \
              -addext 'basicConstraints=critical,CA:TRUE' -addext 'keyUsage=critical,keyCertSign,cRLSign'
            openssl ecparam -name prime256v1 -genkey -noout -out leaf-ec.key 2>/dev/null
            openssl pkcs8 -topk8 -nocrypt -in leaf-ec.key -out leaf.key
            openssl req -new -key leaf.key -subj '/CN=localhost' -out leaf.csr
            printf 'subjectAltName=%s\\nextendedKeyUsage=serverAuth\\nbasicConstraints=CA:FALSE\\n' '\(san)' > leaf.ext
            openssl x509 -req -in leaf.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 2 -extfile leaf.ext -out leaf.pem 2>/dev/null
            """
        let r = try ProcessRunner.run("sh", ["-c", script])
        guard r.status == 0 else {
            throw NSError(
                domain: "OpenSSLTestCertificates", code: Int(r.status), userInfo: [NSLocalizedDescriptionKey: r.stderr])
        }
        return OpenSSLTestCertificates(caFile: d + "/ca.pem", certFile: d + "/leaf.pem", keyFile: d + "/leaf.key")
    }
}
