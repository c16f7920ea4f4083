import JSON
import PushMocks

/// A loaded `--target` file: the backend under test and how ringcheck reaches and signs in to it; how it
/// maps the canonical requests is its profiles' part (`profileConfiguration`).
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
    /// Scenario user name (`a` caller, `b` callee, `c` outsider, …) → its pool of accounts.
    public var users: [String: [TargetAccount]]
    /// `accounts:`: how ringcheck creates the accounts when the run starts (`provisioningAccounts`),
    /// filling `users`; nil when the file lists them.
    public var accountProvisioning: TargetAccountProvisioning? = nil
    /// Whether each scenario's tokens and unfinished calls are cleaned up afterwards (default true).
    public var cleanUp: Bool
    /// Whether a delete the backend answers 404 counts as cleaned (the token was gone already): `cleanUp:
    /// {notFound: cleaned}`, the default; `{notFound: failed}` says the backend's 404 does not mean gone.
    public var cleanUpNotFoundIsCleaned = true
    /// Nil without a `mocks:` or `impersonate:` section (mocks on free ports).
    public var mocks: TargetMocks?
    public var lifecycle: TargetLifecycle?
    /// The profile the backend is judged by (`profile:`, a registered profile's name); nil when the
    /// file names none (then `--profile`, or the default profile).
    public var profile: String? = nil
    /// What each profile decoded from its own keys of the file (`Profile.decodeTargetFile`), by its type.
    public var profileConfiguration = ProfileConfigurations()
    /// The file's token API (`operations.registerToken`/`deleteToken`, `values.kind`/`apnsEnvironment`,
    /// the file-wide `installation:`), which the engine decodes for every profile.
    public var tokenAPI = TokenAPIMapping()

    /// Whether the scenarios need the file's `users:` (`Profile.targetNeedsUsers` of the file's profile, set
    /// when the file is read).
    public internal(set) var needsUsers = true

    /// How many scenarios can run at once: one per slot of accounts (the smallest pool).
    public var poolSize: Int {
        if users.isEmpty, let p = accountProvisioning { return p.perUser }
        return max(users.values.map(\.count).min() ?? 1, 1)
    }

    /// The slots of the file's fixed accounts, which bound how many scenarios run at once; nil when there
    /// are none to share: a profile that signs in as no user (`needsUsers` false) and a file without
    /// `users:` or `accounts:` make their IDs per run, so scenarios run as `--concurrency` says (they ran
    /// one at a time, as if the file had one account per user).
    public var accountSlots: Int? {
        users.isEmpty && accountProvisioning == nil && !needsUsers ? nil : poolSize
    }
}

/// One account of a fixed test user.
public struct TargetAccount: Sendable, Equatable {
    public var userId: String
    public var auth: TargetAuth
    /// The account's IDs in systems a profile plays, by profile name (`dialstackUserId:` → `dialstack`).
    public var profileUserIds: [String: String]

    public init(userId: String, auth: TargetAuth, profileUserIds: [String: String] = [:]) {
        self.userId = userId
        self.auth = auth
        self.profileUserIds = profileUserIds
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
    /// Run from the target file's folder.
    public var command: BackendCommand
    public var timeoutSeconds: Double
    public var send: TokenDelivery
}

/// `mocks:` (and `impersonate:`): start ringcheck's mocks where an already-configured backend expects them.
public struct TargetMocks: Sendable {
    /// Host, ports, state folder (resolved against the target file's folder), CA persistence, IDs, and
    /// the listeners that serve the real push host names.
    public var options = MockStack.Options()
    /// Where the RINGCHECK_* settings are written (shell lines / JSON), resolved against the file's folder.
    public var envFile: String?
    public var jsonFile: String?
}

/// `lifecycle:`: how ringcheck starts, waits for, stops and restarts the backend (commands run from the
/// target file's folder, with the mocks' RINGCHECK_* settings and `environment` added).
public struct TargetLifecycle: Sendable, Equatable {
    public var start: BackendCommand?
    public var ready: BackendReadiness?
    public var stop: BackendCommand?
    public var restart: BackendCommand?
    public var environment: [String: String] = [:]
    /// How many instances of the backend `start` may start (`instances: 2`): the second, on its own
    /// `${RINGCHECK_BACKEND_PORT}` and `${RINGCHECK_BACKEND_STATE_DIR}`, runs the scenarios that must run
    /// alone (`Scenario.runsAlone`) beside the others; 1 runs them after the others on the one instance.
    public var instances = 1

    /// The lifecycle's configuration for a run whose backend output goes to `logFile`.
    public func configuration(directory: String, logFile: String) -> BackendLifecycleConfiguration {
        BackendLifecycleConfiguration(
            start: start, workingDirectory: directory, environment: environment, ready: ready, stop: stop,
            restart: restart, logFile: logFile)
    }
}
