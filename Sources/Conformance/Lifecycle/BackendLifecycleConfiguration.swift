import PushMocks

/// How ringcheck knows the backend is ready: an HTTP URL it polls.
///
/// The backend is ready once the URL answers with any status below 500: a 2xx health check, but
/// also a 401 or 404 from an API root, show a server that is up and handling requests; a 5xx (for
/// example 503 while warming up) or no answer at all means not yet.
public struct BackendReadiness: Sendable, Equatable {
    public var url: String
    /// How long to keep trying after the start (or restart) before giving up.
    public var timeout: Duration
    /// The pause between attempts.
    public var interval: Duration

    public init(url: String, timeout: Duration = .seconds(30), interval: Duration = .milliseconds(100)) {
        self.url = url
        self.timeout = timeout
        self.interval = interval
    }
}

/// How ringcheck starts, checks, stops and restarts a backend (a target's optional `start`, `ready`,
/// `stop` and `restart`). Every part is optional: with none, ringcheck tests a backend someone else runs.
public struct BackendLifecycleConfiguration: Sendable, Equatable {
    /// Starts the backend; ringcheck keeps the process (and its process group) and stops it at the end.
    public var start: BackendCommand?
    /// Where the commands run (ringcheck's own working directory when nil).
    public var workingDirectory: String?
    /// Added to ringcheck's environment for every command, after the mocks' `RINGCHECK_*` settings
    /// (so a target may override one).
    public var environment: [String: String]
    public var ready: BackendReadiness?
    /// Stops the backend. Without it ringcheck sends SIGTERM to the started process group, then
    /// SIGKILL after `stopGracePeriod`.
    public var stop: BackendCommand?
    /// How long a stop (command or SIGTERM) may take before ringcheck kills the process group.
    public var stopGracePeriod: Duration
    /// Restarts the backend (then ringcheck waits for `ready`). Without it a restart is a stop and a
    /// start, when there is a `start`.
    public var restart: BackendCommand?
    /// How long a `stop` or `restart` command itself may run.
    public var commandTimeout: Duration
    /// Where the output of every command goes (appended, one header line per command).
    public var logFile: String

    public init(
        start: BackendCommand? = nil, workingDirectory: String? = nil, environment: [String: String] = [:],
        ready: BackendReadiness? = nil, stop: BackendCommand? = nil, stopGracePeriod: Duration = .seconds(10),
        restart: BackendCommand? = nil, commandTimeout: Duration = .seconds(120), logFile: String
    ) {
        self.start = start
        self.workingDirectory = workingDirectory
        self.environment = environment
        self.ready = ready
        self.stop = stop
        self.stopGracePeriod = stopGracePeriod
        self.restart = restart
        self.commandTimeout = commandTimeout
        self.logFile = logFile
    }

    /// Whether ringcheck can restart the backend (a `restart` command, or a `start` to repeat).
    public var canRestart: Bool { restart != nil || start != nil }

    /// The configuration with every `${NAME}` of a mock setting filled in with the running mocks' value: in
    /// `environment`'s values, the commands' arguments and `ready.url` (a shell line reads them from its
    /// environment, as the shell would). Other `${…}` stay as they are (the loader refuses unknown ones in
    /// `environment`).
    public func filling(_ mocks: MockSettings?) -> Self {
        guard let mocks else { return self }
        let variables = TargetRunVariables(
            Dictionary(mocks.environment.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first }))
        var out = self
        out.environment = environment.mapValues(variables.fill)
        func arguments(_ command: BackendCommand?) -> BackendCommand? {
            guard case .arguments(let argv)? = command else { return command }
            return .arguments(argv.map(variables.fill))
        }
        (out.start, out.stop, out.restart) = (arguments(start), arguments(stop), arguments(restart))
        if let url = ready?.url { out.ready?.url = variables.fill(url) }
        return out
    }

    /// The environment the commands get on top of ringcheck's own: the mocks' settings, then `environment`.
    public func commandEnvironment(mocks: MockSettings?) -> [String: String] {
        var env: [String: String] = [:]
        for (name, value) in mocks?.environment ?? [] { env[name] = value }
        for (name, value) in environment { env[name] = value }
        return env
    }
}
