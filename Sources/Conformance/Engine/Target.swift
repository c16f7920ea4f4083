import HTTP

/// A backend under test as the engine talks to it: where it listens, how each test user signs in and
/// what it can do; how its API differs from the canonical requests is its profiles' (`apiMapping`). `--target FILE` builds one from a target file (`TargetFile`);
/// without it the CLI builds one for the embedded reference backend.
public struct Target: Sendable {
    /// How reports name the target (`embedded reference backend`, a base URL).
    public var name: String
    /// `http://host:port` or `https://…`, without a trailing slash.
    public var baseURL: String
    /// The account that plays scenario user `name` in run number `run` (each scenario run gets fresh
    /// accounts, so runs never interfere); nil when the target has no account for it. With
    /// `accountSlots`, the second argument is the slot the run holds instead.
    public var accounts: @Sendable (_ name: String, _ run: Int) -> TargetUser?
    /// Fixed accounts: how many scenarios may run at once, each holding one slot of accounts (nil when
    /// every run gets fresh accounts).
    public var accountSlots: Int?
    /// The names `accounts` knows, when the target lists them (a target file's user roles).
    public var roles: [String] = []
    /// Signs an account in (a login request, a token command): the headers its requests carry. Nil
    /// when `TargetUser.authHeaders` already hold them.
    public var credentials: (@Sendable (_ name: String, _ slot: Int) async throws -> [String: String])?
    /// Whether each scenario's tokens are deleted and its unfinished calls ended afterwards (fixed accounts).
    public var cleanUp: Bool = false
    /// Whether a clean-up delete answered 404 counts as cleaned (the token was gone already); false when the
    /// target says its 404 does not mean gone (`cleanUp: {notFound: failed}`).
    public var cleanUpNotFoundIsCleaned = true
    /// TLS trust for an `https://` base URL: a CA file, or no verification at all.
    public var caFile: String?
    public var insecureSkipVerify: Bool = false
    /// What the target can do; scenarios needing anything else are not applicable.
    public var capabilities: Set<Capability>
    /// The app ID (bundle ID) tokens are registered for.
    public var appId: String
    /// A file the backend's log lines reach (its output when ringcheck started it), for the
    /// `backendLog` capability: the `expectNotLogged` step reads it.
    public var backendLog: String?
    /// Restarts the backend and returns once it is ready again (the `restartBackend` step); give the
    /// target the `restart` capability with it.
    public var restart: (@Sendable () async throws -> Void)? = nil
    /// What each profile knows of the target beyond the engine's fields (DialStack's webhook receiver, a
    /// push service's app, Callx's routes and API mapping), by its type: a target file's
    /// `TargetFile.profileConfiguration`.
    public var profileConfiguration = ProfileConfigurations()
    /// The target's token API (`TargetFile.tokenAPI`; the reference route for a target built in code): how
    /// it is spoken to when no profile configuration supplies an API mapping of its own.
    public var tokenAPI = TokenAPIMapping()

    public init(
        name: String, baseURL: String, accounts: @escaping @Sendable (_ name: String, _ run: Int) -> TargetUser?,
        capabilities: Set<Capability>, appId: String
    ) {
        self.name = name
        var url = baseURL
        while url.hasSuffix("/") { url.removeLast() }
        self.baseURL = url
        self.accounts = accounts
        self.capabilities = capabilities
        self.appId = appId
    }

    /// Why `scenario` cannot run against this target, or nil when it can.
    public func notApplicableReason(_ scenario: Scenario) -> String? {
        let missing = scenario.needs.filter { !capabilities.contains($0) }
        if !missing.isEmpty { return "the target lacks " + missing.map(\.rawValue).joined(separator: ", ") }
        if let name = scenario.allUsers.first(where: { accounts($0, 0) == nil }) {
            return "the target has no account for user '\(name)'"
        }
        if let reason = stepNotApplicableReason(scenario.steps) { return reason }
        return apiMapping.notApplicableReason(scenario)
    }

    /// Why the first profile step (at the top or in a race) that cannot run against this target cannot
    /// (`ProfileStep.notApplicableReason(on:)`), after its path.
    func stepNotApplicableReason(_ steps: [ScenarioStep]) -> String? {
        for s in steps {
            switch s.step {
            case .profile(let p): if let reason = p.base.notApplicableReason(on: self) { return "\(s.path) \(reason)" }
            case .race(let r): if let reason = stepNotApplicableReason(r.steps) { return reason }
            default: continue
            }
        }
        return nil
    }
}

/// One account of the backend under test.
public struct TargetUser: Sendable, Equatable {
    /// The backend's ID for the user (what `calleeUserId` names).
    public var userId: String
    /// The headers that authenticate the user's requests (names in lower case).
    public var authHeaders: [String: String]
    /// The user's IDs in systems a profile plays, by profile name (DialStack's `data.user_id` under
    /// `dialstack`); a profile uses `userId` for a system not named here.
    public var profileUserIds: [String: String] = [:]

    /// Sent as `Authorization: Bearer <token>`.
    public init(userId: String, bearerToken: String) {
        self.init(userId: userId, authHeaders: ["authorization": "Bearer \(bearerToken)"])
    }

    /// The token of an `Authorization: Bearer` header ("" without one).
    public var bearerToken: String {
        guard let v = authHeaders["authorization"], v.hasPrefix("Bearer ") else { return "" }
        return String(v.dropFirst(7))
    }

    public init(userId: String, authHeaders: [String: String]) {
        self.userId = userId
        self.authHeaders = Dictionary(authHeaders.map { ($0.key.lowercased(), $0.value) }) { _, last in last }
    }
}

extension Target {
    /// An HTTP client for the backend: its TLS trust, sensible time limits, and HTTP/1.1 for plain
    /// HTTP (libcurl cannot reuse h2c prior-knowledge connections). `maxIdleConnections`: how many
    /// finished connections it keeps for reuse.
    public func makeClient(maxIdleConnections: Int = 64) throws -> HTTPClient {
        try Self.makeClient(
            for: baseURL, caFile: caFile, insecureSkipVerify: insecureSkipVerify,
            maxIdleConnections: maxIdleConnections)
    }

    /// The client every profile's load drives the backend with: `makeClient` keeping up to
    /// `loadIdleConnections` idle connections.
    public func makeLoadClient() throws -> HTTPClient {
        try makeClient(maxIdleConnections: Self.loadIdleConnections)
    }

    /// Connections a load client keeps for reuse: above any concurrency load runs at plus its feeds, so
    /// no request waits for a new connection. With libcurl's 64, 128 calls in flight reopened one
    /// connection per ~4 calls, costing both sides a TCP handshake and teardown.
    public static var loadIdleConnections: Int { 1024 }

    /// A client for requests to `url` (the backend, or its login endpoint) with the target's TLS trust.
    public static func makeClient(
        for url: String, caFile: String?, insecureSkipVerify: Bool, timeoutSeconds: Double = 15,
        maxIdleConnections: Int = 64
    ) throws -> HTTPClient {
        let version: ClientHTTPVersion = url.hasPrefix("https://") ? .automatic : .http1_1
        return try HTTPClient(
            configuration: .init(
                caFile: caFile, insecureSkipVerify: insecureSkipVerify, timeoutSeconds: timeoutSeconds,
                connectTimeoutSeconds: 5, httpVersion: version, maxIdleConnections: maxIdleConnections))
    }
}
