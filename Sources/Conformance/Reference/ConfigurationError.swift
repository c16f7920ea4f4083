/// A problem with the user's configuration (a file, an environment variable): the CLI reports its
/// message and exits with status 2.
///
/// ```swift
/// let users = try ConfigurationError.reporting("--users: ") { try UserDirectory.load(path: path) }
/// ```
package struct ConfigurationError: Error, CustomStringConvertible {
    package var message: String
    package var description: String { message }

    package init(message: String) { self.message = message }

    /// What `body` returns; any error it throws becomes a configuration error, its text after `prefix`.
    package static func reporting<T>(_ prefix: String = "", _ body: () throws -> T) throws -> T {
        do { return try body() } catch { throw ConfigurationError(message: prefix + "\(error)") }
    }
}
