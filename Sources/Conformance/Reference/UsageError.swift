/// A command line that does not fit the command's configuration: the CLI reports it with the command's
/// usage and exit status 2. A reference kit throws it for a `serve-reference` option it cannot use:
///
/// ```swift
/// throw UsageError(message: "--db does not apply to --profile probe", command: arguments.command)
/// ```
package struct UsageError: Error, CustomStringConvertible {
    package var message: String
    /// The command whose usage is printed after the message (nil: none).
    package var command: String?
    package var description: String { message }

    package init(message: String, command: String? = nil) {
        self.message = message
        self.command = command
    }
}
