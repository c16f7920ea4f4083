import COpenSSL
import Glibc

/// A server failure: the operation that failed and what the system or library said.
public struct HTTPServerError: Error, Sendable, CustomStringConvertible {
    /// The failing operation, such as `bind` or `SSL_CTX_use_PrivateKey`.
    public var operation: String
    /// `errno` or the OpenSSL error code, 0 when not applicable.
    public var code: Int
    public var message: String

    public init(operation: String, code: Int = 0, message: String) {
        self.operation = operation
        self.code = code
        self.message = message
    }

    public var description: String { "\(operation) failed (\(code)): \(message)" }

    /// An error from `errno`.
    static func posix(_ operation: String, _ errnoValue: Int32) -> HTTPServerError {
        let message = strerror(errnoValue).map { String(cString: $0) } ?? "error \(errnoValue)"
        return HTTPServerError(operation: operation, code: Int(errnoValue), message: message)
    }

    /// An error from the OpenSSL error queue (which it drains).
    static func openSSL(_ operation: String) -> HTTPServerError {
        let code = ERR_get_error()
        var buf = [CChar](repeating: 0, count: 256)
        ERR_error_string_n(code, &buf, buf.count)
        ERR_clear_error()
        let message = String(decoding: buf.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return HTTPServerError(operation: operation, code: Int(code), message: message)
    }
}
