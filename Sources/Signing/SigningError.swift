import COpenSSL

/// A failure in key handling, signing, verification or token validation, with a code that callers
/// can switch on and a message that says what was wrong (and, for OpenSSL failures, OpenSSL's reason).
public struct SigningError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure this is.
    public enum Code: String, Sendable {
        /// A key could not be read, generated or is of an unsupported type.
        case badKey
        /// A token's algorithm is missing, not allowed, or does not match the key.
        case badAlgorithm
        /// A signature does not verify.
        case badSignature
        /// Input (token, PEM, JSON file) is not well formed.
        case malformed
        /// A token's `exp` has passed, or it is older than allowed.
        case expired
        /// A token's `nbf` or `iat` lies in the future.
        case notYetValid
        /// A required claim or field is absent.
        case missingClaim
        /// A claim or field has the wrong type or an invalid value.
        case badClaim
        /// OpenSSL reported an unexpected failure.
        case openssl
    }

    /// What kind of failure this is.
    public var code: Code
    /// What went wrong, naming the operation or field.
    public var message: String

    /// Creates an error with `code` and `message`.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code.rawValue): \(message)" }

    /// An error for a failed OpenSSL call: names `operation` and drains OpenSSL's error queue into the message.
    static func openssl(_ operation: String, code: Code = .openssl) -> SigningError {
        SigningError(code, "\(operation) failed" + OpenSSLErrors.drain())
    }
}

/// Reads OpenSSL's thread-local error queue.
enum OpenSSLErrors {
    /// The queued error strings as ": a; b", or "" when the queue is empty. Empties the queue.
    static func drain() -> String {
        var texts: [String] = []
        while true {
            let e = ERR_get_error()
            if e == 0 { break }
            var buffer = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(e, &buffer, buffer.count)
            texts.append(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return texts.isEmpty ? "" : ": " + texts.joined(separator: "; ")
    }

    /// Empties the queue (after a failure that is reported as a plain `false`).
    static func clear() { ERR_clear_error() }
}
