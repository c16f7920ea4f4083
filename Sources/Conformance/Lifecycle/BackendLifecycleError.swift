/// Starting, checking, stopping or restarting the backend failed; `message` says what, where its
/// output is, and its last lines.
public struct BackendLifecycleError: Error, Sendable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
