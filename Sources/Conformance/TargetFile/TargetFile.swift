import JSON
import PushMocks

/// A loaded `--target` file: the backend under test and how ringcheck reaches, signs in to and maps it.
public struct TargetFile: Sendable {
    /// The file as given (errors and reports name it).
    public var path: String
    /// The folder relative paths in the file are resolved against.
    public var directory: String
    public var name: String
    public var baseURL: String
    public var caFile: String?
    /// Skip verifying the backend's certificate (warned about loudly).
    public var insecureSkipVerify: Bool
    /// The app ID tokens are registered for; nil uses the mocks' bundle ID.
    public var appId: String?
    public var capabilities: Set<Capability>
    /// How many events the backend keeps per feed, when it declares `eventRetention: N`.
    public var eventRetention: Int?
    /// The events page size the engine asks for while draining.
    public var eventPageLimit: Int?
    /// Scenario user name (`a` caller, `b` callee, `c` outsider, …) → its pool of accounts.
    public var users: [String: [TargetAccount]]
    public var mapping: TargetMapping
    /// Whether each scenario's tokens and unfinished calls are cleaned up afterwards (default true).
    public var cleanUp: Bool
    public var mocks: TargetMocks?
    /// `impersonate:` as written: wired to the host-name impersonation when merged.
    public var impersonate: TargetImpersonation?
    /// `lifecycle:` as written: wired to backend process management when merged.
    public var lifecycle: TargetLifecycle?

    /// How many scenarios can run at once: one per slot of accounts (the smallest pool).
    public var poolSize: Int { max(users.values.map(\.count).min() ?? 1, 1) }
}

/// One account of a fixed test user.
public struct TargetAccount: Sendable, Equatable {
    public var userId: String
    public var auth: TargetAuth

    public init(userId: String, auth: TargetAuth) {
        self.userId = userId
        self.auth = auth
    }
}

/// How an account authenticates its requests.
public enum TargetAuth: Sendable, Equatable {
    /// Fixed headers (`bearer: T` is `Authorization: Bearer T`).
    case headers([String: String])
    /// A login request whose response holds the token.
    case login(TargetLogin)
    /// A command that prints the token on its standard output.
    case command(TargetTokenCommand)
}

/// How a token is sent once obtained: `header` with `format`'s `{token}` replaced.
public struct TokenDelivery: Sendable, Equatable {
    public var header: String = "authorization"
    public var format: String = "Bearer {token}"

    public func headers(_ token: String) -> [String: String] {
        [header.lowercased(): format.replacingOccurrences(of: "{token}", with: token)]
    }
}

public struct TargetLogin: Sendable, Equatable {
    public var method: String
    /// Absolute, or a path under the base URL.
    public var url: String
    public var headers: [String: String]
    public var body: JSONValue?
    /// Dotted path of the token in the JSON response.
    public var tokenPath: String
    public var send: TokenDelivery
}

public struct TargetTokenCommand: Sendable, Equatable {
    public var command: TargetCommand
    public var timeoutSeconds: Double
    public var send: TokenDelivery
}

/// A command: an argument list run as is, or a line run by `/bin/sh -c`.
public enum TargetCommand: Sendable, Equatable {
    case arguments([String])
    case shell(String)

    /// The argument list to spawn, run from `directory`.
    public func argv(in directory: String) -> [String] {
        switch self {
        case .arguments(let args):
            return ["/bin/sh", "-c", "cd \"$0\" && exec \"$@\"", directory] + args
        case .shell(let line):
            return ["/bin/sh", "-c", "cd \"$0\" && \(line)", directory]
        }
    }
}

/// `mocks:`: start ringcheck's mocks where an already-configured backend expects them.
public struct TargetMocks: Sendable {
    /// Host, ports, state folder (resolved against the target file's folder), CA persistence, IDs.
    public var options = MockStack.Options()
    /// Where the RINGCHECK_* settings are written (shell lines / JSON), resolved against the file's folder.
    public var envFile: String?
    public var jsonFile: String?
}

/// `impersonate:`: the mocks answer under the real push host names. Kept as written (with its
/// position) for the impersonation feature to read.
public struct TargetImpersonation: Sendable, Equatable {
    public var enabled: Bool
    /// The section's settings as written (an empty object for `impersonate: true`).
    public var settings: JSONValue
    public var mark: YAMLMark
}

/// `lifecycle:`: how ringcheck starts, waits for, stops and restarts the backend.
public struct TargetLifecycle: Sendable, Equatable {
    public var start: TargetCommand?
    public var ready: TargetReadiness?
    public var stop: TargetCommand?
    public var restart: TargetCommand?
    public var mark: YAMLMark
}

/// The backend is ready once `url` answers (any status below 500) within `timeoutSeconds`.
public struct TargetReadiness: Sendable, Equatable {
    public var url: String
    public var timeoutSeconds: Double
}
