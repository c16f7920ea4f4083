import PushMocks

/// One scenario of a suite: who takes part, which requirements it evidences, and its steps.
public struct Scenario: Sendable, Equatable {
    /// Stable dotted ID, e.g. `arbitration.two-devices-race`.
    public var id: String
    public var title: String
    /// What the scenario does and why (for `ringcheck explain`).
    public var description: String?
    /// Requirement IDs the scenario evidences (all exist in the catalogue).
    public var requirements: [String]
    public var tags: [String]
    /// Users beyond the caller `a` and the devices' users (e.g. an outsider `c`).
    public var users: [String]
    /// Virtual devices in the order written.
    public var devices: [VirtualDevice]
    /// Capabilities the target must have; without one the scenario is not applicable.
    public var needs: [Capability]
    public var steps: [ScenarioStep]
    /// The file the scenario was read from and where it starts.
    public var file: String
    public var mark: YAMLMark

    public init(
        id: String, title: String, description: String? = nil, requirements: [String], tags: [String] = [],
        users: [String] = [], devices: [VirtualDevice] = [], needs: [Capability] = [], steps: [ScenarioStep],
        file: String = "<input>", mark: YAMLMark = YAMLMark(line: 1, column: 1)
    ) {
        self.id = id
        self.title = title
        self.description = description
        self.requirements = requirements
        self.tags = tags
        self.users = users
        self.devices = devices
        self.needs = needs
        self.steps = steps
        self.file = file
        self.mark = mark
    }

    /// Every user the scenario knows: `a` (the caller played by ringcheck), declared users, devices' users.
    public var allUsers: [String] {
        var out = ["a"]
        var seen: Set<String> = ["a"]
        for u in users + devices.map(\.user) where seen.insert(u).inserted { out.append(u) }
        return out
    }

    /// The device named `name`.
    public func device(_ name: String) -> VirtualDevice? { devices.first { $0.name == name } }
}

/// A fresh installation the engine creates for a scenario, with its own push token.
public struct VirtualDevice: Sendable, Equatable {
    /// How the device receives pushes: `apnsVoip` or `fcm`.
    public typealias Kind = PushChannel
    /// The APNs environment a VoIP token is registered for.
    public typealias Environment = APNsEnvironment

    public var name: String
    public var user: String
    public var kind: Kind
    /// For `apnsVoip` (default production); nil for `fcm`.
    public var environment: Environment?
    /// Whether the engine registers the token before the first step (default true).
    public var registered: Bool

    public init(name: String, user: String, kind: Kind, environment: Environment? = nil, registered: Bool = true) {
        self.name = name
        self.user = user
        self.kind = kind
        self.environment = kind.hasEnvironments ? (environment ?? .production) : environment
        self.registered = registered
    }
}

/// Something a target must be able to do for a scenario to apply to it.
public struct Capability: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    /// The backend sends its pushes to ringcheck's mocks, so faults can be injected.
    public static let faults = Capability(rawValue: "faults")
    /// The backend honours APNs sandbox registrations.
    public static let sandbox = Capability(rawValue: "sandbox")
    /// The call's ring time is short enough to wait for expiry within a run.
    public static let shortRing = Capability(rawValue: "shortRing")
    /// The backend can be made to forget old events, so a cursor falls behind its retention.
    public static let eventRetention = Capability(rawValue: "eventRetention")
    /// The backend sends Android push signals (call.accepted / call.ended over FCM).
    public static let pushSignals = Capability(rawValue: "pushSignals")
    /// The backend issues media sessions.
    public static let mediaSession = Capability(rawValue: "mediaSession")
    /// ringcheck can restart the backend.
    public static let restart = Capability(rawValue: "restart")
    /// ringcheck can read what the backend logs (it started the backend, or the target names the file).
    public static let backendLog = Capability(rawValue: "backendLog")
    /// Answering is an operation of its own, not a side effect of asking for media (a target file
    /// declaring `answerByMediaRequest` lacks it).
    public static let answerEndpoint = Capability(rawValue: "answerEndpoint")
    /// The backend honours operationId idempotency keys on create, answer and end.
    public static let idempotency = Capability(rawValue: "idempotency")
    /// ringcheck can reach a second instance of the backend started without its push provider's settings
    /// (`Target.unconfiguredBaseURL`), to see that it sends nothing.
    public static let unconfigured = Capability(rawValue: "unconfigured")

    public static let known: [Capability] = [
        .faults, .sandbox, .shortRing, .eventRetention, .pushSignals, .mediaSession, .restart, .backendLog,
        .answerEndpoint, .idempotency, .unconfigured,
    ]
}
