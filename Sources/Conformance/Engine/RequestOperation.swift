/// What a canonical request does, by name (`registerToken`): a target's API mapping
/// (`TargetAPIMapping`) turns a request for it into the target's own request and reads its answer back.
/// The engine's own operations are the token registration and its delete; a profile names its own
/// beside them.
///
/// ```swift
/// extension RequestOperation {
///     static let page = RequestOperation(rawValue: "page")
/// }
///
/// let request = PreparedRequest(
///     actor: "a", method: "POST", path: "/pages", credentials: account.authHeaders, operation: .page)
/// ```
public struct RequestOperation: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    public var description: String { rawValue }

    /// Registers an installation's push token (`PUT` of the token route).
    public static let registerToken = RequestOperation(rawValue: "registerToken")
    /// Deletes an installation's push token (`DELETE` of the token route).
    public static let deleteToken = RequestOperation(rawValue: "deleteToken")
}
