import JSON

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A user who can sign in to the reference backend.
public struct BackendUser: Sendable, Equatable {
    public var userId: String
    /// Shown on the callee's incoming-call UI.
    public var displayName: String
    /// The app's address for the user, e.g. `callx:user-a`.
    public var handle: String
    /// The bearer token that authenticates as this user.
    public var bearerToken: String

    public init(userId: String, displayName: String, handle: String, bearerToken: String) {
        self.userId = userId
        self.displayName = displayName
        self.handle = handle
        self.bearerToken = bearerToken
    }
}

/// The users the backend knows, and how a bearer token maps to one of them.
///
/// Users are configuration, not data: they come from the built-in test users or a `--users`
/// file on every start, so they live in memory rather than in the database.
public struct UserDirectory: Sendable {
    public let users: [BackendUser]
    private let byToken: [String: BackendUser]
    private let byID: [String: BackendUser]

    public init(_ users: [BackendUser]) {
        self.users = users
        byToken = Dictionary(users.map { ($0.bearerToken, $0) }, uniquingKeysWith: { first, _ in first })
        byID = Dictionary(users.map { ($0.userId, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// `user-a` (Alex), `user-b` (Blake), `user-c` (Casey), with tokens `token-user-a` and so on.
    public static let testUsers = UserDirectory([
        BackendUser(userId: "user-a", displayName: "Alex", handle: "callx:user-a", bearerToken: "token-user-a"),
        BackendUser(userId: "user-b", displayName: "Blake", handle: "callx:user-b", bearerToken: "token-user-b"),
        BackendUser(userId: "user-c", displayName: "Casey", handle: "callx:user-c", bearerToken: "token-user-c"),
    ])

    /// The user a bearer token belongs to.
    public func user(forToken token: String) -> BackendUser? { byToken[token] }

    /// The user with this ID.
    public func user(id: String) -> BackendUser? { byID[id] }

    // MARK: Loading a users file

    /// A problem in a users file, with where it is.
    public struct LoadError: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// Reads users from JSON: `{"users": [{"userId", "displayName", "handle", "token"}, …]}` or a bare array.
    public static func parse(_ json: JSONValue, source: String = "users file") throws(LoadError) -> UserDirectory {
        guard let list = json["users"]?.arrayValue ?? json.arrayValue else {
            throw LoadError(description: "\(source): expected an array of users or {\"users\": [...]}")
        }
        var users: [BackendUser] = []
        for (i, entry) in list.enumerated() {
            func field(_ name: String) throws(LoadError) -> String {
                guard let value = entry[name]?.stringValue, !value.isEmpty, value.utf8.count <= 256 else {
                    throw LoadError(
                        description: "\(source): users[\(i)].\(name) must be a non-empty string of at most 256 bytes")
                }
                return value
            }
            users.append(
                BackendUser(
                    userId: try field("userId"), displayName: try field("displayName"), handle: try field("handle"),
                    bearerToken: try field("token")))
        }
        guard !users.isEmpty else { throw LoadError(description: "\(source): no users") }
        if Set(users.map(\.userId)).count != users.count {
            throw LoadError(description: "\(source): userId values must be unique")
        }
        if Set(users.map(\.bearerToken)).count != users.count {
            throw LoadError(description: "\(source): token values must be unique")
        }
        return UserDirectory(users)
    }

    /// Reads and parses a users file.
    public static func load(path: String) throws(LoadError) -> UserDirectory {
        let bytes: [UInt8]
        do { bytes = try TextFile.bytes(path) } catch { throw LoadError(description: error.description) }
        let json: JSONValue
        do { json = try JSONValue.parse(bytes) } catch {
            throw LoadError(description: "\(path): \(error.description)")
        }
        return try parse(json, source: path)
    }
}
